// legalkg pages: copy buttons, Enter to ask, and the neighbourhood drawing. Plain JavaScript, no
// build step; the pages work without it (the lists carry everything the drawing shows).
"use strict";
var legalkg = (function () {
  function say(note, key) {
    if (note) { note.textContent = document.body.getAttribute(key) || ""; }
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var note = button.parentNode.querySelector(".copied");
    var done = function () { say(note, "data-copied"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.value).then(done, function () {
        source.select();
        say(note, "data-select-copy");
      });
    } else {
      source.select();
      document.execCommand("copy");
      done();
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.copy");
    if (button) { copy(button); }
  });

  // Enter in a question box asks; Shift+Enter (or an IME composition) keeps the new line.
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || !box.hasAttribute ||
        !box.hasAttribute("data-enter-submits")) { return; }
    event.preventDefault();
    if (box.value.trim() && box.form) { box.form.requestSubmit ? box.form.requestSubmit() : box.form.submit(); }
  });

  var colours = { self: "#1a1a1a", parent: "#5b4b8a", child: "#2f6b3a", cites: "#1f5a99", cited_by: "#9a4a00" };

  function drawGraph(containerId, dataId) {
    var container = document.getElementById(containerId);
    var data = document.getElementById(dataId);
    if (!container || !data || typeof cytoscape !== "function") { return null; }
    var elements = JSON.parse(data.textContent);
    var many = elements.filter(function (e) { return !e.data.source; }).length > 12;
    var cy = cytoscape({
      container: container,
      elements: elements,
      style: [
        { selector: "node", style: { "label": "data(label)", "font-size": many ? 9 : 11, "color": "#1a1a1a",
          "text-valign": "bottom", "text-margin-y": 3, "width": 14, "height": 14,
          "text-background-color": "#ffffff", "text-background-opacity": 0.85, "text-background-padding": 1,
          "text-wrap": "ellipsis", "text-max-width": 110,
          "background-color": function (n) { return colours[n.data("role")] || "#444"; } } },
        { selector: "node[role = 'self']", style: { "width": 22, "height": 22, "font-weight": "bold", "z-index": 10 } },
        { selector: "node[?repealed]", style: { "border-width": 2, "border-style": "dashed", "border-color": "#b00020" } },
        { selector: "edge", style: { "width": 1.5, "curve-style": "bezier", "target-arrow-shape": "triangle",
          "line-color": function (e) { return colours[e.data("role")] || "#888"; },
          "target-arrow-color": function (e) { return colours[e.data("role")] || "#888"; } } }
      ],
      layout: { name: "concentric", concentric: function (n) { return n.data("role") === "self" ? 2 : 1; },
        levelWidth: function () { return 1; }, minNodeSpacing: many ? 46 : 36, spacingFactor: 1.2, animate: false },
      userZoomingEnabled: false, boxSelectionEnabled: false, autoungrabify: true
    });
    cy.on("tap", "node", function (event) {
      var href = event.target.data("href");
      if (href && event.target.data("role") !== "self") { window.location.href = href; }
    });
    container.setAttribute("data-nodes", String(cy.nodes().length));
    return cy;
  }

  // The drawing's script (136 KB compressed) is fetched only when the drawing is on screen, and
  // never on a small screen, where the drawing is hidden (the lists above show the same units).
  function drawWhenSeen(containerId, dataId) {
    var container = document.getElementById(containerId);
    if (!container || !window.matchMedia("(min-width: 700px)").matches) { return; }
    var start = function () {
      if (typeof cytoscape === "function") { drawGraph(containerId, dataId); return; }
      var script = document.createElement("script");
      script.src = container.getAttribute("data-script");
      script.onload = function () { drawGraph(containerId, dataId); };
      document.head.appendChild(script);
    };
    if (!("IntersectionObserver" in window)) { start(); return; }
    var seen = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { seen.disconnect(); start(); }
    }, { rootMargin: "200px" });
    seen.observe(container);
  }

  // A unit page's drawing: started here, as the page may run no inline script (its Content-Security-Policy).
  if (document.getElementById("graph") && document.getElementById("graph-data")) { drawWhenSeen("graph", "graph-data"); }

  return { drawGraph: drawGraph, drawWhenSeen: drawWhenSeen };
})();
