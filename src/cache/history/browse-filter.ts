/** `since`/`until`: inclusive, YYYY-MM-DD or an ISO instant, on the table's own date or time column. */
export interface BrowseFilter {
  cityId?: string;
  since?: string;
  until?: string;
}
