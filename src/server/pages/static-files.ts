/**
 * The pages' stylesheet and their one script, served by the pages plugin from this server (the CSP's 'self'):
 * nothing inline, nothing from elsewhere. Kept as text here so the build needs no copy step.
 */

/** Narrow screens first: one column, tables scroll sideways inside their box. */
export const PAGES_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#1b1f24;background:#fafafa}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;background:#1f3a5f;color:#fff}
header a{color:#fff}
.brand{margin:0;font-weight:600;flex:1 1 12rem}
nav a{margin-right:.8rem}
main{max-width:62rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.2rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
form.inline{display:inline}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
fieldset label{display:inline-block;font-weight:400;margin:.2rem 1rem .2rem 0}
input[type=text],input[type=url],input[type=password]{width:100%;max-width:36rem;padding:.45rem;font:inherit;border:1px solid #888;border-radius:4px}
button{font:inherit;padding:.4rem .8rem;margin:.3rem .3rem .3rem 0;border:1px solid #1f3a5f;border-radius:4px;background:#fff;color:#1f3a5f;cursor:pointer}
button.primary{background:#1f3a5f;color:#fff}
.error{color:#a4141c;font-weight:600;margin:.2rem 0}
.notice{background:#e7f3e8;border-left:4px solid #2c7a35;padding:.5rem .8rem}
.shown-once{background:#fff7d6;border-left:4px solid #b38600;padding:.6rem .8rem;margin:1rem 0}
output{display:block;font:15px/1.4 ui-monospace,monospace;word-break:break-all;background:#fff;padding:.4rem;border:1px solid #ccc;margin:.3rem 0}
.table-box{overflow-x:auto;margin:.5rem 0}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
td.mono,code{font-family:ui-monospace,monospace;word-break:break-all}
details summary{cursor:pointer;color:#a4141c}
.muted{color:#5b6470}
`;

/** Progressive: without JS the value is there to select; with it, a Copy button beside each shown-once value. */
export const COPY_JS = `
document.querySelectorAll('output[data-copy]').forEach(function (out) {
  if (!navigator.clipboard) return;
  var button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Copy';
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(out.textContent.trim()).then(function () { button.textContent = 'Copied'; });
  });
  out.insertAdjacentElement('afterend', button);
});
`;
