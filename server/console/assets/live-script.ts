/**
 * The console's only script, served from /console/assets/console.js for every contributed page: it counts down
 * the time left of each element with `data-expires` (disabling the buttons of its `data-id` card once expired),
 * and every few seconds fetches each `data-live` list's URL (sending x-console-live) and merges it in by `data-id`,
 * so a new card appears and a gone one goes without a reload, while a reason being typed into a card stays put
 * (the pending approvals list is one). Everything works without it, by reloading.
 */
export const LIVE_SCRIPT = `'use strict';
(function () {
  var REFRESH_MS = 2000;
  function left(expiresAt) {
    var s = Math.floor((Date.parse(expiresAt) - Date.now()) / 1000);
    if (s <= 0) return 'expired';
    var pad = function (n) { return String(n).padStart(2, '0'); };
    if (s >= 3600) return Math.floor(s / 3600) + ' h ' + pad(Math.floor((s % 3600) / 60)) + ' min left';
    if (s >= 60) return Math.floor(s / 60) + ' min ' + pad(s % 60) + ' s left';
    return s + ' s left';
  }
  function tick() {
    document.querySelectorAll('[data-expires]').forEach(function (el) {
      var text = left(el.getAttribute('data-expires'));
      el.textContent = text;
      if (text === 'expired') {
        el.classList.add('expired');
        var card = el.closest('[data-id]');
        if (card) {
          card.classList.add('expired-card');
          card.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
        }
      }
    });
  }
  function merge(list, html) {
    var next = document.createElement('div');
    next.innerHTML = html;
    var incoming = next.querySelectorAll('[data-id]');
    var keep = {};
    incoming.forEach(function (card) { keep[card.getAttribute('data-id')] = card; });
    list.querySelectorAll('[data-id]').forEach(function (card) {
      if (!keep[card.getAttribute('data-id')]) card.remove();
    });
    if (incoming.length === 0) {
      if (!list.querySelector('.empty')) list.innerHTML = html;
      return;
    }
    var empty = list.querySelector('.empty');
    if (empty) empty.remove();
    var previous = null;
    incoming.forEach(function (card) {
      var id = card.getAttribute('data-id');
      var current = document.getElementById(id);
      if (!current) {
        current = card;
        if (previous) previous.after(current); else list.prepend(current);
      }
      previous = current;
    });
  }
  function refresh(list) {
    fetch(list.getAttribute('data-live'), { credentials: 'same-origin', headers: { accept: 'text/html', 'x-console-live': '1' } })
      .then(function (response) {
        if (response.status === 401) { window.location.assign('/console/signin'); return null; }
        return response.ok ? response.text() : null;
      })
      .then(function (html) { if (html !== null) { merge(list, html); tick(); } })
      .catch(function () { /* offline for a moment: the next round tries again */ });
  }
  document.addEventListener('DOMContentLoaded', function () {
    tick();
    setInterval(tick, 1000);
    document.querySelectorAll('[data-live]').forEach(function (list) {
      setInterval(function () { refresh(list); }, REFRESH_MS);
    });
  });
})();
`;
