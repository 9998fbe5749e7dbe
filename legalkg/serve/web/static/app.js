// legalkg pages: copy buttons and the neighbourhood drawing. Plain JavaScript, no build step; the
// pages work without it (the lists carry everything the drawing shows).
"use strict";
var legalkg = (function () {
  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var note = button.parentNode.querySelector(".copied");
    var done = function () { if (note) { note.textContent = "Copied."; } };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.value).then(done, function () {
        source.select();
        if (note) { note.textContent = "Selected: press Ctrl+C to copy."; }
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

  var colours = { self: "#1a1a1a", parent: "#5b4b8a", child: "#2f6b3a", cites: "#1f5a99", cited_by: "#9a4a00" };

  function drawGraph(containerId, dataId) {
    var container = document.getElementById(containerId);
    var data = document.getElementById(dataId);
    if (!container || !data || typeof cytoscape !== "function") { return null; }
    var cy = cytoscape({
      container: container,
      elements: JSON.parse(data.textContent),
      style: [
        { selector: "node", style: { "label": "data(label)", "font-size": 10, "color": "#1a1a1a",
          "text-valign": "bottom", "text-margin-y": 3, "width": 14, "height": 14,
          "background-color": function (n) { return colours[n.data("role")] || "#444"; } } },
        { selector: "node[role = 'self']", style: { "width": 22, "height": 22, "font-weight": "bold" } },
        { selector: "node[?repealed]", style: { "border-width": 2, "border-style": "dashed", "border-color": "#b00020" } },
        { selector: "edge", style: { "width": 1.5, "curve-style": "bezier", "target-arrow-shape": "triangle",
          "line-color": function (e) { return colours[e.data("role")] || "#888"; },
          "target-arrow-color": function (e) { return colours[e.data("role")] || "#888"; } } }
      ],
      layout: { name: "concentric", concentric: function (n) { return n.data("role") === "self" ? 2 : 1; },
        levelWidth: function () { return 1; }, minNodeSpacing: 18, animate: false },
      userZoomingEnabled: false, boxSelectionEnabled: false, autoungrabify: true
    });
    cy.on("tap", "node", function (event) {
      var href = event.target.data("href");
      if (href && event.target.data("role") !== "self") { window.location.href = href; }
    });
    container.setAttribute("data-nodes", String(cy.nodes().length));
    return cy;
  }

  return { drawGraph: drawGraph };
})();
