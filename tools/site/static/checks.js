// The course website's predictions: each is answered in the page from the table the builder
// made with attnlib's own check (tools/site/predictions.py): the same options, and the same
// verdicts in the edition's words, a first wrong try told its slip (or the step to redo)
// without the answer, a second the answer. A classic script, so that a page opened from the file system runs it too.
(() => {
  "use strict";
  const escape = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

  // Python's format(v, ".{p}g")
  function pyG(v, p) {
    if (v === 0) return Object.is(v, -0) ? "-0" : "0";
    if (!Number.isFinite(v)) return v > 0 ? "inf" : v < 0 ? "-inf" : "nan";
    const [mant, expText] = v.toExponential(p - 1).split("e");
    const exp = Number(expText);
    if (exp < -4 || exp >= p) {
      const m = mant.includes(".") ? mant.replace(/\.?0+$/, "") : mant;
      return `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    }
    const s = v.toFixed(Math.max(0, p - 1 - exp));
    return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
  }
  // Python's repr() of what the learner typed: 9 an int, 0.17 a float (9.0 for a whole float)
  const pyRepr = (v, whole) => (whole ? String(v) : Number.isInteger(v) ? v.toFixed(1) : String(v));

  // The verdict's HTML with the answer written where the check wrote it (⟦r⟧, ⟦g⟧, ...)
  function filled(text, marks, v, whole) {
    const forms = { r: pyRepr(v, whole), g: pyG(v, 6), ".4g": pyG(v, 4), ".3g": pyG(v, 3) };
    for (const [mark, spec] of Object.entries(marks || {})) text = text.split(mark).join(escape(forms[spec]));
    return text;
  }

  function verdictOf(data, control) {
    if (data.kind === "choice") {
      const k = control.selectedIndex - 1;
      return k < 0 ? null : data.verdicts[k];
    }
    const text = control.value.trim();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
    const v = Number(text), whole = /^[+-]?\d+$/.test(text);
    if (data.kind === "index") {
      if (whole && v >= 0 && v < data.n) return data.verdicts[v];
      const t = data.outside;
      return { passed: false, tries: t.tries.map((s) => filled(s, data.marks, v, whole)) };
    }
    let band = 0; // how many edges are at or below v (bisect_right)
    while (band < data.edges.length && data.edges[band] <= v) band += 1;
    const t = data.verdicts[data.bands[band]];
    return { passed: t.passed, tries: t.tries.map((s) => filled(s, data.marks, v, whole)) };
  }

  function mount(el, data) {
    const w = data.words, id = `${el.id}-answer`;
    let wrong = 0;
    const form = document.createElement("form");
    form.className = "attnlib-check-form";
    const label = Object.assign(document.createElement("label"), { htmlFor: id, textContent: w.your_answer });
    let control;
    if (data.kind === "choice") {
      control = document.createElement("select");
      control.append(Object.assign(document.createElement("option"), { value: "", textContent: w.choose }));
      for (const [value, caption] of data.options)
        control.append(Object.assign(document.createElement("option"), { value, textContent: caption }));
    } else {
      control = Object.assign(document.createElement("input"), { type: "text", inputMode: "decimal",
                                                                 autocomplete: "off", size: 10 });
    }
    control.id = id;
    control.dataset.check = data.name;
    const button = Object.assign(document.createElement("button"), { type: "submit", textContent: w.check });
    const result = document.createElement("div");
    result.className = "attnlib-check-result";
    result.setAttribute("aria-live", "polite");
    form.append(label, control, button);
    el.append(form, result);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const verdict = verdictOf(data, control);
      if (!verdict) { control.focus(); return; }
      if (verdict.passed) { wrong = 0; result.innerHTML = verdict.tries[0]; }
      else {
        // a wrong try counts; an answer of the wrong kind (both verdicts alike) does not
        if (verdict.tries[0] !== verdict.tries[1]) wrong += 1;
        result.innerHTML = verdict.tries[Math.min(Math.max(wrong, 1), 2) - 1];
      }
      result.dataset.passed = String(verdict.passed);
    });
  }

  function start() {
    for (const s of document.querySelectorAll("script.attnlib-check-data"))
      mount(document.getElementById(s.dataset.for), JSON.parse(s.textContent));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
