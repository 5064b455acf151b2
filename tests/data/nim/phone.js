// Nim on a phone: the heap, and a button for each take this seat may make now.
"use strict";
renderers.nim = (m) => {
  const take = m.offers.find((o) => o.kind === "take");
  setStatus(lines(m.status) + (take ? ` — ${t("nim_phone.take")}` : ""));
  $("#main").replaceChildren(el("div", { className: "keys" },
    (take ? take.choices : []).map((n) => button(String(n), () => act("take", n)))));
};
