// « Ma soirée »'s notifications (templates/push/notify.html, push/views.py): ask the
// browser to be told through its own push service, or say in one line why not here. The
// page keeps updating by itself (its htmx poll) whatever comes of it.
"use strict";
(function () {
  const box = document.querySelector("[data-push]");
  if (!box) {
    return;
  }
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const status = box.querySelector("[data-push-status]");
  // Which competitors this browser asked for (the browser has one subscription for the site).
  const remembered = "atout-push:" + box.dataset.subscribeUrl;

  function say(text) {
    status.textContent = text;
  }
  function unavailable(text) {
    on.hidden = true;
    off.hidden = true;
    box.classList.add("push-unavailable");
    say(text);
  }
  function shown(active) {
    on.hidden = active;
    off.hidden = !active;
    on.disabled = false;
    off.disabled = false;
  }
  function remember(active) {
    try {
      if (active) {
        window.localStorage.setItem(remembered, "1");
      } else {
        window.localStorage.removeItem(remembered);
      }
    } catch (error) {
      // A private window may refuse the storage: the button says the state anyway.
    }
  }
  function rememberedOn() {
    try {
      return window.localStorage.getItem(remembered) === "1";
    } catch (error) {
      return false;
    }
  }
  function within(promise, milliseconds) {
    return Promise.race([
      promise,
      new Promise((resolve, reject) => window.setTimeout(() => reject(new Error("timeout")), milliseconds)),
    ]);
  }
  function decode(text) {
    const base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(window.atob(base64), (character) => character.charCodeAt(0));
  }
  async function keyAndToken() {
    const answer = await fetch(box.dataset.keyUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!answer.ok) {
      throw new Error("key");
    }
    return answer.json();
  }
  async function post(url, body, csrf) {
    const answer = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    const data = await answer.json().catch(() => ({}));
    return { ok: answer.ok, data: data };
  }

  if (window.isSecureContext === false) {
    // Push and service workers need HTTPS (or the machine itself): a room's plain-HTTP Wi-Fi has neither.
    unavailable(box.dataset.msgInsecure);
    return;
  }
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!supported) {
    const apple = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
    unavailable(apple ? box.dataset.msgIos : box.dataset.msgUnsupported);
    return;
  }
  if (Notification.permission === "denied") {
    unavailable(box.dataset.msgDenied);
    return;
  }
  if (Notification.permission === "granted" && rememberedOn()) {
    shown(true);
    say(box.dataset.msgOn);
  }

  on.addEventListener("click", async () => {
    on.disabled = true;
    say(box.dataset.msgWait);
    try {
      const info = await within(keyAndToken(), 10000);
      if (!info.key) {
        unavailable(box.dataset.msgUnavailable);
        return;
      }
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        unavailable(box.dataset.msgDenied);
        return;
      }
      await within(navigator.serviceWorker.register(box.dataset.workerUrl, { scope: "/" }), 10000);
      const registration = await within(navigator.serviceWorker.ready, 10000);
      let subscription = await registration.pushManager.getSubscription();
      if (!subscription) {
        subscription = await within(
          registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: decode(info.key) }),
          15000
        );
      }
      const answer = await post(box.dataset.subscribeUrl, subscription.toJSON(), info.csrf);
      if (!answer.ok) {
        shown(false);
        say(answer.data.error || box.dataset.msgUnavailable);
        return;
      }
      remember(true);
      shown(true);
      say(answer.data.message || box.dataset.msgOn);
    } catch (error) {
      unavailable(box.dataset.msgUnavailable);
    }
  });

  off.addEventListener("click", async () => {
    off.disabled = true;
    try {
      const registration = await navigator.serviceWorker.getRegistration("/");
      const subscription = registration ? await registration.pushManager.getSubscription() : null;
      if (subscription) {
        // This competitor only: the browser's subscription may serve others followed here.
        const info = await within(keyAndToken(), 10000);
        await post(box.dataset.unsubscribeUrl, { endpoint: subscription.endpoint }, info.csrf);
      }
      remember(false);
      shown(false);
      say(box.dataset.msgOff);
    } catch (error) {
      off.disabled = false;
      say(box.dataset.msgUnavailable);
    }
  });
})();
