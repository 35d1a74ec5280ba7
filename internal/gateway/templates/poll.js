(function () {
  var o = document.getElementById("outcome");
  if (!o) return;
  var u = o.getAttribute("data-url");
  function later() { setTimeout(tick, 3000) }
  function tick() {
    fetch(u, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null }).then(function (j) {
      if (!j || j.status === "pending") { later(); return }
      document.getElementById("waiting").hidden = true;
      o.className = "outcome " + (j.status === "failed" || j.status === "expired" ? "bad" : "good");
      o.textContent = j.message;
      var b = document.getElementById("back");
      if (b) b.hidden = false
    }, later)
  }
  later()
})();
