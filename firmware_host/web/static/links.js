// Every seat's link and QR code, for the table's owner (the page holds the table's key).
"use strict";

(async () => {
  const params = new URLSearchParams({ t: ZT.token, k: ZT.key });
  const r = await fetch("/api/links?" + params);
  if (!r.ok) { location.reload(); return; }
  const box = document.getElementById("links");
  for (const link of (await r.json()).links) {
    const qr = ZT.el("div", { class: "qr" });
    qr.innerHTML = link.qr;  // an SVG made by the table itself
    box.append(ZT.el("div", { class: link.phone ? "seat phone-seat" : "seat", "data-seat": link.seat }, ZT.el("h3", { text: link.phone ? `Téléphone ${link.seat}` : `Siège ${link.seat}` }), qr,
      ZT.el("a", { href: link.url.replace(/^HTTP:/, "http:"), target: "_blank", rel: "noopener" }, "ouvrir")));
  }
})();
