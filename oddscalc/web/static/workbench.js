// oddscalc workbench: sends the form as it is typed and swaps in the HTML the server renders (escaped there).
// Each page load is its own tab on the server (data-tab): two tabs never share an answer.
"use strict";
(function () {
  const tab = document.body.dataset.tab;
  const api = (path) => "/api/" + encodeURIComponent(tab) + "/" + path;
  const $ = (id) => document.getElementById(id);
  let sent = 0;      // the latest edit sent: an older answer arriving late is dropped
  let timer = null;
  let lastField = null;

  function status(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.className = "status " + (kind || "");
  }

  async function call(path, body) {
    const r = await fetch(api(path), {method: "POST", body: body});
    let data;
    try { data = await r.json(); } catch (e) { data = {error: "the server answered " + r.status}; }
    if (!r.ok && !data.problems && !data.error) { data.error = "the server answered " + r.status; }
    return data;
  }

  function show(data) {
    if (data.results !== undefined) { $("results").innerHTML = data.results; }
    if (data.forms !== undefined) { $("forms").innerHTML = data.forms; }
    if (data.variants !== undefined) { $("variant-count").textContent = data.variants + " kept"; }
    if (data.memory !== undefined) { $("memory").textContent = data.memory; }
    // the table menu names a shipped table only while it is the one on screen (not after an upload or a rule edit)
    if (data.table !== undefined) { $("table").value = data.table; }
    $("problems").innerHTML = data.problems || "";
    // figures kept from the last good table are dimmed while a problem stands: never read as the typed table's
    $("results").classList.toggle("stale", Boolean(data.problems));
  }

  async function poll(job, seq, started) {
    const r = await fetch(api("job/" + encodeURIComponent(job)));
    const data = await r.json();
    if (seq !== sent) { return; }
    if (!data.done) {
      // the share done where the count reports one; elsewhere only the time it has taken, said as such
      const seconds = Math.floor(data.elapsed) + " s";
      status(data.percent === null || data.percent === undefined
        ? "Counting… " + seconds + " (this count tells no share done)"
        : "Counting: " + data.percent + "% done (" + seconds + ")…", "busy");
      setTimeout(() => poll(job, seq, started), 250);
      return;
    }
    show(data);
    if (data.problems) { status("Not answered: see the problems below.", "bad"); }
    else { status("Counted and answered in " + ((performance.now() - started) / 1000).toFixed(1) + " s.", "ok"); }
  }

  async function edit() {
    const seq = ++sent;
    const started = performance.now();
    const data = await call("edit", new FormData($("edit")));
    if (seq !== sent) { return; }
    if (data.job) { status("Counting: the rules changed the counts…", "busy"); poll(data.job, seq, started); return; }
    show(data);
    if (data.problems) { status("Not answered: see the problems below (the figures shown are the last good table's).", "bad"); }
    else { status("Answered in " + Math.round(performance.now() - started) + " ms.", "ok"); }
  }

  // no inline handlers (the page's Content-Security-Policy allows only this script)
  document.addEventListener("submit", (e) => { e.preventDefault(); });
  $("game").addEventListener("change", () => { $("table").value = ""; $("open").submit(); });
  $("table").addEventListener("change", () => { $("open").submit(); });
  document.addEventListener("input", (e) => {
    const kind = e.target.dataset && e.target.dataset.kind;
    if (kind === "pay") {
      e.target.classList.toggle("changed", e.target.value.trim() !== e.target.dataset.file);
      clearTimeout(timer);
      timer = setTimeout(edit, 40);
    }
    if (e.target.dataset && e.target.dataset.input) { markCards(); }
  });
  document.addEventListener("change", (e) => {
    const kind = e.target.dataset && e.target.dataset.kind;
    if (kind === "rule" || kind === "strategy") { clearTimeout(timer); edit(); }
  });
  document.addEventListener("focusin", (e) => {
    if (e.target.dataset && e.target.dataset.input) { lastField = e.target; }
  });

  document.addEventListener("change", async (e) => {
    const what = e.target.dataset && e.target.dataset.upload;
    if (!what || !e.target.files.length) { return; }
    const body = new FormData();
    const name = e.target.files[0].name;
    body.append("file", e.target.files[0]);
    status("Reading " + name + "…", "busy");
    const seq = ++sent;
    const data = await call("upload/" + what, body);
    e.target.value = "";
    if (data.job) { poll(data.job, seq, performance.now()); return; }
    show(data);
    status(data.problems ? "Not taken: " + name + ": see the problems below." : "Taken: " + (data.name || name) + ".",
           data.problems ? "bad" : "ok");
  });

  $("add-variant").addEventListener("click", async () => {
    const data = await call("variants/add", new FormData($("edit")));
    show(data);
    $("compare").innerHTML = data.compare || "";
    $("variants-tool").scrollIntoView({block: "start"});  // the comparison is below the figures: bring it to view
  });
  $("clear-variants").addEventListener("click", async () => {
    const data = await call("variants/clear", new FormData());
    show(data);
    $("compare").innerHTML = "";
  });
  $("solve").addEventListener("submit", async () => {
    const data = await call("solve", new FormData($("solve")));
    $("solved").innerHTML = data.answer || data.problems || "";
  });
  const hand = $("hand");
  function markCards() {  // the cards named in any field of the hand query, shown as chosen
    if (!hand) { return; }
    const named = new Set();
    hand.querySelectorAll("input").forEach((i) => i.value.split(/[\s,]+/).forEach((c) => named.add(c)));
    hand.querySelectorAll("button.card").forEach((b) => b.classList.toggle("chosen", named.has(b.dataset.card)));
  }
  if (hand) {
    hand.addEventListener("submit", async () => {
      const data = await call("hand", new FormData(hand));
      $("hand-answer").innerHTML = data.answer || data.problems || "";
    });
    $("hand-clear").addEventListener("click", () => {
      hand.querySelectorAll("input").forEach((i) => { i.value = ""; });
      $("hand-answer").innerHTML = "";
      markCards();
    });
    $("cards").addEventListener("click", (e) => {
      const card = e.target.dataset && e.target.dataset.card;
      if (!card) { return; }
      const field = lastField || hand.querySelector("input");
      const cards = field.value.split(/[\s,]+/).filter((c) => c);
      const at = cards.indexOf(card);
      if (at >= 0) { cards.splice(at, 1); } else { cards.push(card); }  // a second click takes it back
      field.value = cards.join(" ");
      field.focus();
      markCards();
    });
  }
})();
