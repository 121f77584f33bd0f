// The rules editor checks the file after each change, without a click (issue 22: "sees at once the
// errors"). The page works without this script: every button posts the whole form. With it, a
// change posts the same form in the background ("do=check", exactly what the 检查 button sends)
// and the server's answer replaces only what it says about the file: the errors, each option's
// marks and messages, the rule sheet and the diff, and the hidden copy of the file. No control,
// button or open section is replaced, so nothing typed is lost and a click is never swallowed;
// an answer that arrives after a newer edit is dropped and the form checked again.
"use strict";
(() => {
  const form = document.querySelector("form.editor");
  if (!form || !window.fetch || !window.DOMParser) return;
  let edits = 0; // every input or change; an answer to an older state is not shown
  let busy = false;
  let timer = 0;

  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(check, 120);
  };

  async function check() {
    if (busy) return; // the answer in flight sees that edits moved on, and checks again
    busy = true;
    const sent = edits;
    const body = new URLSearchParams(new FormData(form));
    body.set("do", "check");
    form.classList.add("checking");
    try {
      const reply = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
      const page = await reply.text();
      if (sent === edits) {
        show(new DOMParser().parseFromString(page, "text/html"));
        form.dataset.checked = String(sent); // the edit the page now speaks for (tests wait on it)
      }
    } catch (e) {
      // the server is gone or refused: the buttons still post the page, which says why
    } finally {
      busy = false;
      form.classList.remove("checking");
      if (sent !== edits) schedule();
    }
  }

  function show(doc) {
    const next = doc.querySelector("form.editor");
    if (!next) return;
    for (const part of next.querySelectorAll("[data-live]")) {
      const old = document.getElementById(part.id);
      if (old) old.replaceWith(document.importNode(part, true));
    }
    for (const part of next.querySelectorAll("[data-live-class]")) {
      const old = document.getElementById(part.id);
      if (old) old.className = part.className;
    }
    // Nothing was typed since the form was sent (else this answer is dropped), so every control,
    // the focused one too, takes the value the server now holds: the hidden copy of the file and
    // the boxes always agree, whichever was edited last.
    for (const control of next.querySelectorAll("input[name], select[name], textarea[name]")) {
      const old = form.elements.namedItem(control.name);
      if (!(old instanceof HTMLInputElement || old instanceof HTMLSelectElement || old instanceof HTMLTextAreaElement)) {
        continue;
      }
      if (old instanceof HTMLSelectElement && old.innerHTML !== control.innerHTML) {
        old.innerHTML = control.innerHTML; // a value written by hand that the list lacks gets its option
      }
      if (old.value === control.value) continue;
      const caret = old === document.activeElement && "selectionStart" in old ? old.selectionStart : null;
      old.value = control.value;
      if (caret !== null && !(old instanceof HTMLSelectElement)) {
        try {
          old.setSelectionRange(caret, caret);
        } catch (e) {
          // a box without a caret
        }
      }
    }
  }

  const edited = () => {
    edits += 1;
    form.dataset.edits = String(edits);
  };
  form.addEventListener("input", edited);
  form.addEventListener("change", (event) => {
    edited();
    if (event.target && event.target.name === "base") {
      // another base redraws every control with its values: the whole page, as the button does
      form.querySelector("button[name=do][value=check]").click();
      return;
    }
    schedule();
  });
})();
