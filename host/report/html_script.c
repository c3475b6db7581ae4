// SPDX-License-Identifier: MIT
/* The HTML report's one inline script and its Content-Security-Policy
 * hash (see html.h). */
#include "html.h"

#include "bh_sha256.h"

#include <string.h>

/* Sorts the summary table by a clicked (or Enter-pressed) column header,
 * numbers by their data-v (cells without one last), text by its content;
 * filters its rows by the status and verdict selects and the text box,
 * and says how many rows are shown. Plain ES5, nothing fetched. */
static const char script[] =
    "(function(){"
    "var t=document.getElementById('summary-table');if(!t)return;"
    "var tb=t.tBodies[0],rows=Array.prototype.slice.call(tb.rows),"
    "heads=t.tHead.rows[0].cells,cnt=document.getElementById('summary-count');"
    "function el(id){return document.getElementById(id);}"
    "var fs=el('f-status'),fv=el('f-verdict'),fq=el('f-text');"
    "function apply(){var s=fs?fs.value:'',v=fv?fv.value:'',"
    "q=fq?fq.value.toLowerCase():'',n=0;"
    "rows.forEach(function(r){var ok=(!s||r.getAttribute('data-status')===s)&&"
    "(!v||r.getAttribute('data-verdict')===v)&&"
    "(!q||r.textContent.toLowerCase().indexOf(q)>=0);r.hidden=!ok;if(ok)n++;});"
    "if(cnt)cnt.textContent=n+' of '+rows.length+' cases shown';}"
    "[fs,fv,fq].forEach(function(e){if(e)e.addEventListener('input',apply);});"
    "Array.prototype.forEach.call(heads,function(th,i){"
    "function sort(){var dir=th.getAttribute('aria-sort')==='ascending'?-1:1,"
    "num=th.getAttribute('data-sort')==='n';"
    "Array.prototype.forEach.call(heads,function(o){o.removeAttribute('aria-sort');});"
    "th.setAttribute('aria-sort',dir>0?'ascending':'descending');"
    "rows.sort(function(a,b){var x=a.cells[i],y=b.cells[i];if(num){"
    "var p=parseFloat(x.getAttribute('data-v')),q=parseFloat(y.getAttribute('data-v'));"
    "if(isNaN(p))return isNaN(q)?0:1;if(isNaN(q))return -1;return (p-q)*dir;}"
    "return x.textContent.localeCompare(y.textContent)*dir;});"
    "rows.forEach(function(r){tb.appendChild(r);});}"
    "th.tabIndex=0;th.addEventListener('click',sort);"
    "th.addEventListener('keydown',function(e){if(e.key==='Enter')sort();});});"
    "apply();})();";

/* See html.h. */
const char *bh_html_script(void)
{
    return script;
}

/* See html.h. */
void bh_html_script_hash(char out[BH_HTML_HASH_LEN])
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    bh_sha256_ctx c;
    uint8_t d[33] = {0};
    size_t o = 0;

    bh_sha256_init(&c);
    bh_sha256_update(&c, script, strlen(script));
    bh_sha256_final(&c, d);
    /* 32 bytes: ten whole groups of three and two bytes with one "=" */
    for (size_t i = 0; i < 33; i += 3) {
        unsigned v = (unsigned)d[i] << 16 | (unsigned)d[i + 1] << 8 | d[i + 2];

        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        out[o++] = i + 1 < 32 ? b64[v >> 6 & 63] : '=';
        out[o++] = i + 2 < 32 ? b64[v & 63] : '=';
    }
    out[o] = '\0';
}
