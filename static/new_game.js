// The new-game form: only the chosen game's seats, computer players, options and "ask me"
// decisions are shown (and submitted: a disabled fieldset sends nothing). Without this script
// every game's are shown, and the server reads only the chosen game's.
"use strict";
(function () {
  const scenario = document.querySelector("select[name=scenario]");
  if (!scenario) return;
  function show() {
    const game = scenario.value.split(":")[0];
    // only the chosen scenario's seats (a game's scenarios may have different ones: DBA's commanders); a
    // scenario the game does not list (an operator's own) shows every seat of the game
    const parts = [...document.querySelectorAll("fieldset.per-game [data-scenarios]")];
    const listed = parts.some((part) => part.dataset.scenarios.split(" ").includes(scenario.value));
    parts.forEach((part) => {
      const mine = !listed || part.dataset.scenarios.split(" ").includes(scenario.value);
      part.hidden = !mine;
      part.querySelectorAll("input").forEach((input) => { input.disabled = !mine; });
    });
    document.querySelectorAll("fieldset.per-game").forEach((fieldset) => {
      const chosen = fieldset.dataset.game === game;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
      const seat = document.querySelector("input[name=seat]:checked");
      if (chosen && (!seat || seat.disabled || (seat.closest("fieldset.per-game") && seat.closest("fieldset.per-game") !== fieldset))) {
        const first = fieldset.querySelector("input[name=seat]:not(:disabled)");
        if (first) first.checked = true;
      }
    });
  }
  scenario.addEventListener("change", show);
  show();
})();
