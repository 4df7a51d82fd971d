// Every number behind a selected cell, computed in the page: attnlib.explorers.explanation's
// Explanation.html() and attnlib.explorers.tables' html_table, sentence for sentence, for a
// page with no kernel (attnlib.explorers.static: a course website, a file sent by email).
// In a notebook the kernel sends the same HTML (the explorer's `details`); the browser tests
// hold the two equal, character for character.
//
// `t` translates an English template of attnlib's tr() (static.py sends them translated).

const ELLIPSIS = "\u2026";
const HIGHLIGHT = "background: #fff1a8; font-weight: bold";
const MUTED = "color: #666"; // tables.MUTED

// Python's html.escape(text): & < > " ' as entities
export const escapeHtml = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;")
  .replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

// Python's repr() of a token: single quotes unless it holds one and no double quote
export function pyRepr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  return q + s.replace(/\\/g, "\\\\").split(q).join("\\" + q) + q;
}

// Python's str.format for {name}, {name!r}: the templates of the explanation
function fill(template, values) {
  return template.replace(/\{(\w+)(!r)?\}/g, (whole, name, r) =>
    (name in values ? (r ? pyRepr(values[name]) : String(values[name])) : whole));
}

// Python's f"{x:.{digits}f}" (round half to even on the exact double)
function fixed(v, digits) {
  const exact = Math.abs(v).toFixed(100), cut = exact.indexOf(".") + 1 + digits;
  const kept = exact.slice(0, digits ? cut : cut - 1);
  if (!/^50*$/.test(exact.slice(cut)) || Number(kept.at(-1)) % 2) return v.toFixed(digits);
  return (v < 0 ? "-" : "") + kept;
}

// explanation.shown: which of m entries are printed (all, or the first and last few plus keep)
export function shown(m, maxItems, keep = []) {
  if (m <= maxItems) return Array.from({ length: m }, (_, k) => k);
  const head = (maxItems + 1) >> 1, tail = maxItems >> 1, picked = new Set();
  for (let k = 0; k < head; k++) picked.add(k);
  for (let k = m - tail; k < m; k++) picked.add(k);
  for (const k of keep) if (k >= 0 && k < m) picked.add(k);
  return [...picked].sort((a, b) => a - b);
}

// tables.label: q_1 -> q<sub>1</sub>, score[1, 2] -> score<sub>1,2</sub> (Python's \w is Unicode)
const WORD = "[\\p{L}\\p{N}_]";
export function label(text) {
  return escapeHtml(text)
    .replace(new RegExp(`(?<!${WORD})([qkvzdΣ])_(${WORD}+)`, "gu"), "$1<sub>$2</sub>")
    .replace(new RegExp(`(score|α)\\[(${WORD}+), (${WORD}+)\\]`, "gu"), "$1<sub>$2,$3</sub>");
}

function cellHtml(text, t) {
  if (text.startsWith("[")) return `<span style="font-family: monospace">${escapeHtml(text)}</span>`;
  if (text.endsWith(t("masked")) || text === "-inf") return `<span style="${MUTED}">${escapeHtml(text)}</span>`;
  return escapeHtml(text);
}

// tables.html_table: rows are [highlighted, cells]; the "key" column aligned left
export function htmlTable(header, rows, footer, t) {
  const pad = "padding: 0 0.4em; white-space: pre; text-align";
  const align = header.map((h) => `style="${pad}: ${h === t("key") ? "left" : "right"}"`);
  const head = header.map((h, k) => `<th ${align[k]}>${label(h)}</th>`).join("");
  const body = rows.map(([hot, cells]) =>
    `<tr${hot ? ` style="${HIGHLIGHT}"` : ""}>` +
    cells.map((c, k) => `<td ${align[k]}>${cellHtml(c, t)}</td>`).join("") + "</tr>");
  if (footer) {
    const tds = footer.map((c, k) => `<td ${align[k]}>${c.startsWith("[") ? cellHtml(c, t) : label(c)}</td>`);
    body.push(`<tr style="border-top: 1px solid #999">${tds.join("")}</tr>`);
  }
  return '<table style="border-collapse: collapse; font-size: inherit; '
    + `font-variant-numeric: tabular-nums; margin: 0.2em 0"><tr>${head}</tr>${body.join("")}</table>`;
}

// explain(att, i, j, tokens=tokens, max_items=maxItems).html(): att holds Q, K, V, scores,
// weights, Z flat (row-major) with n, d_k, d_v and scaled, as explorer.js's selfAttention returns
export function explainHtml(att, tokens, i, j, { t, maxItems = 6, decimals = 3 }) {
  const { n, d_k, d_v } = att;
  const number = (x) => {
    if (x === -Infinity) return "-inf";
    const text = fixed(x, decimals);
    return text.startsWith("-") && Number(text) === 0 ? text.slice(1) : text;
  };
  const row = (M, r, width) => Array.from(M.subarray(r * width, (r + 1) * width));
  const q_i = row(att.Q, i, d_k), k_j = row(att.K, j, d_k);
  const products = q_i.map((q, c) => q * k_j[c]); // (d_k,) * (d_k,) -> (d_k,)
  const dot = products.reduce((s, x) => s + x, 0);
  const divisor = att.scaled ? Math.sqrt(d_k) : 1.0;
  const scores = row(att.scores, i, n), weights = row(att.weights, i, n);
  const rowMax = Math.max(...scores);
  const shifted = scores.map((s) => s - rowMax); // (n,): masked keys stay -inf
  const exps = shifted.map(Math.exp); // exp(-inf) is exactly 0
  const expSum = exps.reduce((s, x) => s + x, 0), weightSum = weights.reduce((s, x) => s + x, 0);
  const V = Array.from({ length: n }, (_, r) => row(att.V, r, d_v));
  const terms = V.map((v, r) => v.map((x) => weights[r] * x)); // (n, 1) * (n, d_v) -> (n, d_v)
  const z_i = row(att.Z, i, d_v);
  const masked = scores.map((s) => s === -Infinity);
  const coords = shown(d_k, maxItems), keys = shown(n, maxItems, [j]), values = shown(d_v, maxItems);
  const vector = (v) => {
    const parts = [];
    let last = -1;
    for (const c of values) { if (c > last + 1) parts.push(ELLIPSIS); parts.push(number(v[c])); last = c; }
    const width = Math.max(...parts.map((p) => p.length));
    return "[" + parts.map((p) => p.padStart(width)).join(" ") + "]";
  };
  const gaps = (indices, size, make) => {
    const out = [];
    let last = -1;
    for (const k of indices) { if (k > last + 1) out.push([false, Array(size).fill(ELLIPSIS)]); out.push(make(k)); last = k; }
    return out;
  };

  const how = att.scaled ? t("scaled by √d_k") : t("unscaled");
  const title = fill(t("{query}{key}  ({n} keys, d_k = {d_k}, d_v = {d_v}, {how})"), {
    query: fill(t("query i = {i}"), { i }) + ` ${pyRepr(tokens[i])}`,
    key: fill(t(", key j = {j}"), { j }) + ` ${pyRepr(tokens[j])}`, n, d_k, d_v, how });

  const hidden = d_k - coords.length;
  const of = fill(t("the {d_k} products"), { d_k }) + (hidden ? fill(t(" ({hidden} not shown)"), { hidden }) : "");
  const scoreNotes = [fill(t("sum of {of} = q_{i} · k_{j} = {dot}"), { of, i, j, dot: number(dot) })];
  const divide = att.scaled ? `÷ √d_k = √${d_k} = ${number(divisor)}` : t("unscaled: no division");
  scoreNotes.push(`${divide}  →  ${number(dot / divisor)}`);
  scoreNotes.push(masked[j] ? fill(t("key {j} is masked: score[{i}, {j}] = -inf, so α[{i}, {j}] = 0"), { i, j })
                            : `score[${i}, ${j}] = ${number(scores[j])}`);
  const sections = [
    { title: `score[${i}, ${j}] = q_${i} · k_${j}` + (att.scaled ? " / √d_k" : ""),
      header: ["c", `q_${i}[c]`, `k_${j}[c]`, t("product")],
      rows: gaps(coords, 4, (c) => [false, [String(c), number(q_i[c]), number(k_j[c]), number(products[c])]]),
      notes: scoreNotes },
    { title: fill(t("α[{i}, j] = exp(score[{i}, j] − max) / sum, for every key j"), { i }),
      header: ["j", t("key"), `score[${i}, j]`, "− max", "exp", `α[${i}, j]`],
      rows: gaps(keys, 6, (k) => {
        const cells = [String(k), tokens[k], number(scores[k]), number(shifted[k]), number(exps[k]), number(weights[k])];
        if (masked[k]) cells[5] += " " + t("masked");
        return [k === j, cells];
      }),
      footer: [t("sum"), "", "", "", number(expSum), number(weightSum)],
      notes: [fill(t("max = {max}, the largest score of row {i}"), { max: number(rowMax), i })] },
    { title: `z_${i} = Σ_j α[${i}, j] v_j`,
      header: ["j", t("key"), `α[${i}, j]`, "v_j", `α[${i}, j] v_j`],
      rows: gaps(keys, 5, (k) => [k === j, [String(k), tokens[k],
        number(weights[k]) + (masked[k] ? " " + t("masked") : ""), vector(V[k]), vector(terms[k])]]),
      footer: [`z_${i}`, "", "", "", vector(z_i)],
      notes: n - keys.length ? [fill(t("(sums run over all {n} keys, {hidden} not shown)"), { n, hidden: n - keys.length })] : [] },
  ];
  const blocks = sections.map((s) => `<div><b>${label(s.title)}</b>`
    + htmlTable(s.header, s.rows, s.footer, t) + s.notes.map(label).join("<br>") + "</div>");
  return '<div class="attnlib-explain" style="line-height: 1.3">'
    + `<div>${label(title)}</div>`
    + '<div style="display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start">'
    + blocks.join("") + "</div></div>";
}

// What the kernel puts in an explorer's `details` for a selected cell (readouts.breakdown)
export function detailsHtml(att, tokens, i, j, options) {
  return '<div style="margin-top: 0.6em">' + explainHtml(att, tokens, i, j, options) + "</div>";
}
