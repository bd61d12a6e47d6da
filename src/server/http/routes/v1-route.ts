import { NOT_ALLOWED_METHODS } from '../plugins/method-guard.js';

/** Every v1 route is registered for all methods so the method guard can answer 405 (not 404) to non-GET. */
export const V1_METHODS = ['GET', ...NOT_ALLOWED_METHODS];

export const json = 'application/json; charset=utf-8';
