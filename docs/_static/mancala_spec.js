/* mancala_spec rules site: a region that scrolls (a wide table, a long code
   line, a long output) can be reached and scrolled by keyboard: it takes focus (tabindex=0)
   and is named for a screen reader, but only while it does overflow. */
(function () {
  "use strict";
  const SELECTOR = ".highlight pre, .table-wrapper, .sphx-glr-script-out pre";

  function label(element) {
    if (element.matches(".table-wrapper")) {
      const caption = element.querySelector("caption");
      return caption ? `Table: ${caption.textContent.trim()} (scrolls)` : "Table (scrolls)";
    }
    return element.closest(".sphx-glr-script-out") ? "Output (scrolls)" : "Code (scrolls)";
  }

  function mark() {
    for (const element of document.querySelectorAll(SELECTOR)) {
      const style = getComputedStyle(element);
      const overflows = element.scrollWidth > element.clientWidth + 1 ||
        (/auto|scroll/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1);
      if (overflows && !element.hasAttribute("tabindex")) {
        element.setAttribute("tabindex", "0");
        element.setAttribute("role", "region");
        element.setAttribute("aria-label", label(element));
        element.dataset.scrollRegion = "true";
      } else if (!overflows && element.dataset.scrollRegion) {
        for (const name of ["tabindex", "role", "aria-label", "data-scroll-region"]) {
          element.removeAttribute(name);
        }
      }
    }
  }

  let pending = 0;
  function later() {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(mark);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mark);
  } else {
    mark();
  }
  addEventListener("resize", later);
  addEventListener("toggle", later, true);      // a <details> opened: its code may overflow
})();
