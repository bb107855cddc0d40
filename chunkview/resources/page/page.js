// The interactive page (chunkview page): a slider over the values of one option, each
// value's chunks drawn over the document as the app draws them. Plain JavaScript, no
// network: the data is the JSON in #page-data (chunkview/core/views/page_data.py).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  if (data.format !== 1) {
    document.body.textContent = "This page's data is in a format this script cannot read.";
    return;
  }
  const $ = (id) => document.getElementById(id);
  const doc = $("doc"), slider = $("slider"), card = $("card");
  const text = data.text, table = data.strings, astral = data.astral;
  const values = data.values;
  const colours = data.colours;
  const points = text.length - astral.length; // the text's length in code points

  // Offsets in the data are code points (as chunkview spans gives them); a JS string is
  // UTF-16, where each character past the BMP takes two units.
  function utf16(point) {
    if (!astral.length) return point;
    let lo = 0, hi = astral.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (astral[mid] < point) lo = mid + 1; else hi = mid;
    }
    return point + lo;
  }
  const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
  const escape = (s) => s.replace(/[&<>"]/g, (c) => ESC[c]);
  // A carriage return is kept (the HTML parser would turn a CR or CRLF written as such
  // into LF, so it is written as &#13;, which it keeps), in a span that marks it ␍ as the
  // inspector does; the text the page holds is then the document's, offsets and all. A
  // lone CR (no LF after it) ends a line, so a <br> (no text) breaks the line there.
  const CR = '<span class="cr">&#13;</span>';
  const hasCR = text.includes("\r");
  function slice(a, b) {
    const from = utf16(a), piece = text.slice(from, utf16(b));
    if (!hasCR) return escape(piece);
    return piece.replace(/[&<>"\r]/g, (c, at) => c !== "\r" ? ESC[c]
      : text[from + at + 1] === "\n" ? CR : CR + "<br>");
  }

  // each kind's colour class, once
  const kindIndex = {};
  let kindCss = "";
  Object.keys(colours).forEach((kind, i) => {
    kindIndex[kind] = i;
    kindCss += ".k" + i + "{--k:" + colours[kind] + "}";
  });
  if (data.b) {
    for (const kind of data.b.kinds) {
      const [colour, line] = data.b.styles[kind];
      kindCss += ".df." + kind + ",.legend i.df." + kind + "{border-left:3px " + line + " " +
        colour + "}";
    }
  }
  const style = document.createElement("style");
  style.textContent = kindCss;
  document.head.appendChild(style);

  // ---- decoding (each value once, when first shown) -------------------------------
  const decoded = [];
  function decode(i) {
    if (decoded[i]) return decoded[i];
    const v = values[i];
    if (v.error) return (decoded[i] = v);
    const n = v.s.length;
    const starts = new Array(n), own = new Array(n), ends = new Array(n);
    let position = 0;
    for (let j = 0; j < n; j++) {
      position += v.s[j];
      starts[j] = position;
      own[j] = position + v.o[j];
      ends[j] = own[j] + v.e[j];
    }
    const missing = new Set(v.m);
    const order = Array.from({ length: n }, (_, j) => j);
    order.sort((a, b) => own[a] - own[b] || a - b);
    // the overlaps (each chunk's repeated prefix), merged, in order
    const spans = [];
    for (let j = 0; j < n; j++) {
      if (!missing.has(j) && starts[j] < own[j]) spans.push([starts[j], own[j]]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    const overlaps = [];
    for (const [a, b] of spans) {
      const last = overlaps[overlaps.length - 1];
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else overlaps.push([a, b]);
    }
    const sizes = v.z.filter((z) => z >= 0);
    const warnings = [];
    for (let j = 0; j < v.w.length; j += 5) {
      warnings.push({
        kind: table[v.w[j]], message: table[v.w[j + 1]],
        start: v.w[j + 2], end: v.w[j + 3], chunk: v.w[j + 4],
      });
    }
    // the changes from B (kept, moved, added, removed), by where each is shown
    const marks = [];
    if (v.d && data.b) {
      for (let j = 0; j < v.d.length; j += 3) {
        const kind = data.b.kinds[v.d[j]], a = v.d[j + 1], b = v.d[j + 2];
        const at = b >= 0 ? b : a;
        const tip = kind === "moved" ? "moved from " + a + " to " + b + " (" +
          (b - a > 0 ? "+" : "") + (b - a) + ")" : data.b.styles[kind][2] + " at " + at;
        marks.push({ at, html: '<span class="df ' + kind + '" title="' + tip + '"></span>' });
      }
      marks.sort((x, y) => x.at - y.at);
    }
    return (decoded[i] = {
      marks, compared: v.ds === undefined ? null : table[v.ds],
      value: v.value, options: v.options, code: v.code, unit: v.unit || data.unit,
      n, starts, own, ends, missing, order, overlaps, sizes, warnings,
      kinds: v.k.map((k) => table[k]), reasons: v.r.map((r) => (r >= 0 ? table[r] : null)),
      size: v.z,
    });
  }

  // ---- the document -----------------------------------------------------------------
  // The text is cut in blocks (data.blocks: at line ends, and inside a very long line
  // after a space), each laid out by the browser only when on screen (CSS
  // content-visibility). A chunk running over a block's end goes on in the next block in
  // a span of its own; its first span carries data-chunk-start and data-chunk-end. Each
  // block's element stays; a redraw gives a block new HTML only where its HTML changed,
  // the blocks on screen at once and the others in idle time (see "drawing" below).
  const blocks = data.blocks;
  const lineEnds = /\r\n|\r|\n/;
  doc.innerHTML = blocks.map((start, b) => {
    const end = b + 1 < blocks.length ? blocks[b + 1] : points;
    let rows = 0;
    for (const line of text.slice(utf16(start), utf16(end)).split(lineEnds)) {
      rows += Math.max(1, Math.ceil(line.length / 100));
    }
    return '<div class="blk" data-block="' + b + '" style="contain-intrinsic-size:auto ' +
      Math.round(rows * 21) + 'px"></div>';
  }).join("");
  const blockEls = Array.from(doc.children);
  const NO_CHUNKS = { order: [], overlaps: [], missing: new Set(), marks: [] };
  let showB = Boolean(data.b && !data.b.error);

  // Each block's HTML as one string, set at once: the browser parses it faster than it
  // builds nodes one by one (bench/page.py measures it).
  function paint(d) {
    const html = new Array(blocks.length).fill("");
    let out = [];
    const open = []; // the spans open now: [open tag, close tag, open tag in a new block]
    let next = 1; // the next block to start
    function cross(p) { // start every block that starts at or before p
      while (next < blocks.length && blocks[next] <= p) {
        for (let t = open.length - 1; t >= 0; t--) out.push(open[t][1]);
        html[next - 1] = out.join("");
        out = [];
        next++;
        for (let t = 0; t < open.length; t++) out.push(open[t][2]);
      }
    }
    const marks = showB ? d.marks : [];
    let m = 0; // the next change from B to mark
    function flush(p) { // mark the changes from B at or before p
      while (m < marks.length && marks[m].at <= p) out.push(marks[m++].html);
    }
    function put(a, b) { // text a..b, cut where a block starts or a change is marked
      while (a < b) {
        cross(a);
        flush(a);
        let stop = next < blocks.length ? Math.min(b, blocks[next]) : b;
        if (m < marks.length) stop = Math.min(stop, Math.max(marks[m].at, a + 1));
        out.push(slice(a, stop));
        a = stop;
      }
    }
    const overlaps = d.overlaps;
    let k = 0;
    // text a..b of a chunk's own part, its overlapped stretches hatched
    function own(a, b) {
      while (k < overlaps.length && overlaps[k][1] <= a) k++;
      let p = a;
      for (let q = k; q < overlaps.length && overlaps[q][0] < b; q++) {
        const oa = Math.max(overlaps[q][0], p), ob = Math.min(overlaps[q][1], b);
        if (oa > p) put(p, oa);
        if (ob > oa) {
          const tag = '<span class="ov">';
          out.push(tag);
          open.push([tag, "</span>", tag]);
          put(oa, ob);
          open.pop();
          out.push("</span>");
        }
        p = Math.max(p, ob);
      }
      if (p < b) put(p, b);
    }
    let pos = 0;
    for (const j of d.order) {
      const a = d.own[j], b = d.ends[j];
      const first = '<span class="ck c' + (j % 2) + '" data-i="' + j + '"';
      const attrs = ' data-chunk-start="' + a + '" data-chunk-end="' + b + '">';
      if (d.missing.has(j)) {
        out.push(first.replace('class="ck', 'class="ck miss'), attrs, "</span>");
        continue;
      }
      const from = Math.max(a, pos), to = Math.max(b, from);
      if (from > pos) put(pos, from);
      cross(from); // the boundary's mark opens the block its chunk starts in
      if (j > 0) {
        const kind = "k" + (kindIndex[d.kinds[j]] ?? 0);
        out.push('<span class="mk ', kind, '"></span><span class="lb ', kind, '">#', j, "</span>");
      }
      out.push(first, attrs);
      open.push([first + attrs, "</span>", first + ">"]);
      own(from, to);
      open.pop();
      out.push("</span>");
      pos = to;
    }
    put(pos, points);
    flush(Infinity);
    html[next - 1] = out.join("");
    return html;
  }

  // ---- drawing ----------------------------------------------------------------------
  // A slider move redraws the blocks on screen (and a little around) at once; the other
  // blocks follow in idle time, a few milliseconds at a time, nearest the screen first,
  // so the next frame waits for a screenful only. When every block shows the value,
  // document.body.dataset.drawn holds it and window.chunkview.drawn() resolves (tests and
  // tools read the chunks then). A block whose HTML is the same keeps its elements.
  const drawnHtml = new Array(blocks.length).fill(null);
  const onScreen = new Set();
  let wanted = null; // the HTML of each block for the value being drawn
  let wantedLabel = "";
  let queue = []; // the blocks left to draw, nearest the screen first
  let scheduled = false;
  let waiters = [];
  const BATCH_MS = 4; // the longest the page is busy in one idle step
  const later = window.requestIdleCallback
    ? (step) => requestIdleCallback(step, { timeout: 100 })
    : (step) => setTimeout(step, 0);

  function setBlock(b) {
    if (drawnHtml[b] !== wanted[b]) {
      blockEls[b].innerHTML = wanted[b];
      drawnHtml[b] = wanted[b];
    }
  }
  function finished() {
    document.body.dataset.drawn = wantedLabel;
    const done = waiters;
    waiters = [];
    done.forEach((resolve) => resolve(wantedLabel));
  }
  function drawSome() {
    scheduled = false;
    const stop = performance.now() + BATCH_MS;
    while (queue.length && performance.now() < stop) setBlock(queue.pop());
    if (queue.length) schedule(); else finished();
  }
  function schedule() {
    if (!scheduled) {
      scheduled = true;
      later(drawSome);
    }
  }
  function drawRest() { // every block now (a warning clicked needs its chunk)
    while (queue.length) setBlock(queue.pop());
    if (wanted && document.body.dataset.drawn !== wantedLabel) finished();
  }
  function draw(html, label) {
    delete document.body.dataset.drawn;
    wanted = html;
    wantedLabel = label;
    onScreen.forEach(setBlock);
    // the rest, nearest the screen first (the queue is popped from its end)
    const near = onScreen.size ? Math.min(...onScreen) : 0;
    queue = [];
    for (let b = 0; b < blocks.length; b++) if (!onScreen.has(b)) queue.push(b);
    queue.sort((x, y) => Math.abs(y - near) - Math.abs(x - near));
    if (queue.length) schedule(); else finished();
  }
  // the blocks on screen, and a quarter of a screen around, as the reader scrolls: one
  // coming on screen before its turn is drawn at once
  const watcher = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const b = Number(entry.target.dataset.block);
      if (entry.isIntersecting) {
        onScreen.add(b);
        if (wanted) setBlock(b);
      } else {
        onScreen.delete(b);
      }
    }
  }, { root: doc.parentElement, rootMargin: "25% 0px" });
  blockEls.forEach((el) => watcher.observe(el));

  // ---- the side panel -------------------------------------------------------------
  // one scale for every value, so the histograms compare as the slider moves
  let largest = 1;
  values.forEach((v) => { if (!v.error) v.z.forEach((z) => { if (z > largest) largest = z; }); });

  function median(sorted) {
    if (!sorted.length) return 0;
    const m = sorted.length >> 1;
    return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  }

  function histogram(sizes) {
    const svg = $("hist");
    const W = 300, H = 120, left = 4, bottom = 16, top = 12, bins = 24;
    const counts = new Array(bins).fill(0);
    for (const z of sizes) counts[Math.min(bins - 1, Math.floor((z / largest) * bins))]++;
    const most = Math.max(1, ...counts);
    const width = (W - 2 * left) / bins;
    const parts = [];
    counts.forEach((c, i) => {
      if (!c) return;
      const h = ((H - bottom - top) * c) / most;
      parts.push('<rect class="bar" x="' + (left + i * width + 0.5).toFixed(1) + '" y="' +
        (H - bottom - h).toFixed(1) + '" width="' + (width - 1).toFixed(1) + '" height="' +
        h.toFixed(1) + '"><title>' + c + " chunks</title></rect>");
    });
    parts.push('<line class="axis" x1="0" x2="' + W + '" y1="' + (H - bottom) + '" y2="' +
      (H - bottom) + '"/>');
    if (sizes.length) {
      const sorted = sizes.slice().sort((a, b) => a - b);
      const med = median(sorted);
      const x = (left + (med / largest) * (W - 2 * left)).toFixed(1);
      parts.push('<line class="med" x1="' + x + '" x2="' + x + '" y1="' + (top - 4) + '" y2="' +
        (H - bottom) + '"/><text x="' + x + '" y="' + (top - 3) + '" text-anchor="middle">median ' +
        med + "</text>");
    }
    parts.push('<text x="0" y="' + (H - 3) + '">0</text><text x="' + W + '" y="' + (H - 3) +
      '" text-anchor="end">' + largest + " " + escape(data.unit) + "</text>");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.innerHTML = parts.join("");
    svg.setAttribute("aria-label", sizes.length + " chunk sizes");
  }

  function warningsList(d) {
    const list = $("warnings");
    $("wcount").textContent = d.error ? "" : "(" + d.warnings.length + ")";
    if (d.error) {
      list.innerHTML = "";
      return;
    }
    if (!d.warnings.length) {
      list.innerHTML = '<li class="none" style="border:0">None for this value.</li>';
      return;
    }
    list.innerHTML = d.warnings.slice(0, 500).map((w) =>
      '<li data-chunk="' + w.chunk + '" data-start="' + w.start + '">' + escape(w.message) +
      "<small>" + escape(w.kind) + " · " + w.start + "–" + w.end + "</small></li>").join("");
  }

  const fmt = (value) => String(value);

  // ---- showing a value --------------------------------------------------------------
  let shown = -1;
  function show(i, updateHash) {
    i = Math.max(0, Math.min(values.length - 1, i));
    const d = decode(i);
    shown = i;
    slider.value = String(i);
    $("value").textContent = fmt(d.value);
    $("settings").textContent = JSON.stringify(d.options, null, 1);
    $("code").textContent = d.code || "";
    $("copy").disabled = !d.code;
    hideCard();
    document.body.classList.toggle("failed-value", Boolean(d.error));
    if (d.error) {
      $("failure").hidden = false;
      $("failure").innerHTML = "<b>" + escape(data.param) + " = " + escape(fmt(d.value)) +
        " failed.</b> " + escape(d.error.name) + ": " + escape(d.error.message);
      draw(paint(NO_CHUNKS), fmt(d.value));
      $("count").textContent = "failed";
      histogram([]);
    } else {
      $("failure").hidden = true;
      draw(paint(d), fmt(d.value));
      $("count").textContent = String(d.n);
      $("median").textContent = d.sizes.length
        ? median(d.sizes.slice().sort((a, b) => a - b)) + " " + d.unit : "–";
      $("warn-count").textContent = String(d.warnings.length);
      histogram(d.sizes);
    }
    warningsList(d);
    if (data.b && !data.b.error) {
      $("b-summary").textContent = d.error ? "–" : d.compared;
    }
    if (updateHash !== false) {
      history.replaceState(null, "", "#" + encodeURIComponent(data.param) + "=" + fmt(d.value));
    }
  }

  function indexFromHash() {
    const hash = decodeURIComponent(location.hash.slice(1));
    const eq = hash.indexOf("=");
    if (eq < 0 || hash.slice(0, eq) !== data.param) return -1;
    const wanted = Number(hash.slice(eq + 1));
    if (!Number.isFinite(wanted)) return -1;
    let best = -1;
    values.forEach((v, i) => {
      if (best < 0 || Math.abs(v.value - wanted) < Math.abs(values[best].value - wanted)) best = i;
    });
    return best;
  }

  // ---- the hover card ---------------------------------------------------------------
  let hovered = null;
  function unhover() {
    if (hovered) hovered.forEach((piece) => piece.classList.remove("hover"));
    hovered = null;
  }
  function hideCard() {
    card.hidden = true;
    unhover();
  }
  function showCard(el, x, y) {
    const d = decode(shown);
    const j = Number(el.dataset.i);
    if (hovered === null || hovered[0] === undefined || hovered[0].dataset.i !== el.dataset.i) {
      unhover();
      hovered = Array.from(doc.querySelectorAll('.ck[data-i="' + j + '"]'));
      hovered.forEach((piece) => piece.classList.add("hover"));
      const size = d.size[j] >= 0 ? d.size[j] + " " + d.unit : "—";
      const overlap = d.starts[j] < d.own[j]
        ? "<tr><th>overlap</th><td>" + d.starts[j] + "–" + d.own[j] + "</td></tr>" : "";
      const reason = d.reasons[j]
        ? "<tr><th>reason</th><td>" + escape(d.reasons[j]) + "</td></tr>" : "";
      const missing = d.missing.has(j)
        ? "<tr><th>placed</th><td>not found in the text</td></tr>" : "";
      card.innerHTML = "<table><tr><th>chunk</th><td>#" + j + "</td></tr>" +
        "<tr><th>offsets</th><td>" + d.starts[j] + "–" + d.ends[j] + " (own text from " +
        d.own[j] + ")</td></tr>" + overlap +
        "<tr><th>size</th><td>" + size + "</td></tr>" +
        "<tr><th>kind</th><td>" + escape(d.kinds[j]) + "</td></tr>" + reason + missing +
        "</table>";
      card.hidden = false;
    }
    const pad = 14, w = card.offsetWidth, h = card.offsetHeight;
    card.style.left = Math.min(x + pad, innerWidth - w - 4) + "px";
    card.style.top = (y + pad + h > innerHeight ? y - h - pad : y + pad) + "px";
  }
  doc.addEventListener("mousemove", (event) => {
    const el = event.target.closest(".ck");
    if (el) showCard(el, event.clientX, event.clientY); else hideCard();
  });
  doc.addEventListener("mouseleave", hideCard);

  // ---- controls ---------------------------------------------------------------------
  slider.max = String(values.length - 1);
  $("low").textContent = fmt(values[0].value);
  $("high").textContent = fmt(values[values.length - 1].value);
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
    if (step) {
      event.preventDefault();
      show(shown + step);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      show(event.key === "Home" ? 0 : values.length - 1);
    }
  });
  addEventListener("hashchange", () => {
    const i = indexFromHash();
    if (i >= 0 && i !== shown) show(i, false);
  });
  $("warnings").addEventListener("click", (event) => {
    const li = event.target.closest("li[data-chunk]");
    if (!li) return;
    drawRest();
    const el = doc.querySelector('[data-chunk-start][data-i="' + li.dataset.chunk + '"]');
    if (el) {
      el.scrollIntoView({ block: "center" });
      el.classList.remove("flash");
      void el.offsetWidth;
      el.classList.add("flash");
    }
  });
  $("copy").addEventListener("click", () => {
    const code = decode(shown).code;
    const done = () => {
      $("copy").textContent = "Copied";
      setTimeout(() => { $("copy").textContent = "Copy as code"; }, 1200);
    };
    const fallback = () => {
      const area = document.createElement("textarea");
      area.value = code;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
      done();
    };
    if (navigator.clipboard) navigator.clipboard.writeText(code).then(done, fallback);
    else fallback();
  });

  // the legend: the boundary kinds the values give, in the colours the window gives them
  const given = new Set();
  values.forEach((v) => { if (!v.error) v.k.forEach((k, j) => { if (j > 0) given.add(table[k]); }); });
  $("legend").innerHTML =
    '<span><i class="c0"></i>chunk</span><span><i class="c1"></i>next chunk</span>' +
    '<span><i class="ov"></i>overlap</span>' +
    (hasCR ? '<span><i class="cr"></i>carriage return</span>' : "") +
    Object.keys(colours).filter((kind) => given.has(kind)).map((kind) =>
      '<span><i class="k k' + kindIndex[kind] + '"></i>' + escape(kind) + "</span>").join("");

  // compare: B's settings, whether its boundaries are shown, and their legend
  if (data.b) {
    $("compare").hidden = false;
    $("b-settings").textContent = data.b.entry + " " + JSON.stringify(data.b.options, null, 1);
    if (data.b.error) {
      $("b-summary").textContent = "B failed: " + data.b.error;
      $("b-summary").className = "failed";
      $("show-b").disabled = true;
      $("show-b").checked = false;
    } else {
      $("b-legend").innerHTML = data.b.kinds.map((kind) =>
        '<span><i class="k df ' + kind + '"></i>' + escape(data.b.styles[kind][2]) + "</span>")
        .join("");
    }
    $("show-b").addEventListener("change", () => {
      showB = $("show-b").checked;
      show(shown, false);
    });
  }

  const start = indexFromHash();
  show(start >= 0 ? start : data.initial || 0, start >= 0); // the hash only when it had one
  drawRest(); // the first value whole: nothing is on screen to start with
  // the other values decoded in idle time, one at a time, so that a move costs a redraw only
  let toDecode = 0;
  const decodeNext = () => {
    while (toDecode < values.length && decoded[toDecode]) toDecode++;
    if (toDecode < values.length) {
      decode(toDecode);
      later(decodeNext);
    }
  };
  later(decodeNext);
  // for tools and tests: the redraw, the value shown, and when it is all drawn
  // the whole value drawn: a promise of its label, as document.body.dataset.drawn says
  const drawn = () => document.body.dataset.drawn !== undefined
    ? Promise.resolve(document.body.dataset.drawn)
    : new Promise((resolve) => waiters.push(resolve));
  window.chunkview = {
    show, shown: () => shown, values: values.map((v) => v.value), drawn, drawRest,
  };
})();
