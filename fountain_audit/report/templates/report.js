// Sort an index table by the clicked column (numbers numerically, text alphabetically).
document.querySelectorAll("table.sortable th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0];
    var up = th.getAttribute("aria-sort") !== "ascending";
    th.closest("tr").querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.sort, y = b.cells[col].dataset.sort;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
// Dense timeline (many scenes: one path per scene kind, no element per row): the scene under the
// pointer is named in the caption above the timeline, and a click goes to it. Row i is scene
// s(i+1), rows data-row-h units apart from y data-top in the view box.
document.querySelectorAll("svg.timeline.dense").forEach(function (svg) {
  var caption = svg.parentNode.querySelector(".tl-caption");
  var top = Number(svg.dataset.top), rowH = Number(svg.dataset.rowH), rows = Number(svg.dataset.rows);
  function sceneAt(ev) {
    var box = svg.getBoundingClientRect();
    var i = Math.floor(((ev.clientY - box.top) * svg.viewBox.baseVal.height / box.height - top) / rowH);
    return i >= 0 && i < rows ? "s" + (i + 1) : null;
  }
  svg.addEventListener("mousemove", function (ev) {
    var id = sceneAt(ev), scene = id && document.getElementById(id);
    caption.textContent = scene ? scene.querySelector("h3").textContent : "\u200b";
  });
  svg.addEventListener("click", function (ev) {
    var id = sceneAt(ev);
    if (id) location.hash = "#" + id;
  });
});
// Collapsed blocks (tool-call arguments, a scene's recorded text): the button before a block
// shows or hides it; find in page opens a block holding a match by itself (hidden="until-found").
document.addEventListener("click", function (ev) {
  var button = ev.target.closest ? ev.target.closest("button.toggle") : null;
  if (!button) return;
  var block = button.nextElementSibling, open = block.hasAttribute("hidden");
  if (open) block.removeAttribute("hidden"); else block.setAttribute("hidden", "until-found");
  button.setAttribute("aria-expanded", String(open));
});
document.addEventListener("beforematch", function (ev) {
  var button = ev.target.previousElementSibling;
  if (button && button.matches("button.toggle")) button.setAttribute("aria-expanded", "true");
}, true);
