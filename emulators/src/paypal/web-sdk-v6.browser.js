// Stand-in for PayPal's JS SDK v6 core script (https://www.sandbox.paypal.com/web-sdk/v6/core), for
// tests and the offline demo, served by the PayPal emulator at /_emulator/paypal-web-sdk-v6-core.js.
// It is NOT PayPal's SDK: it implements only what @paypal/react-paypal-js/sdk-v6 and Pluma's
// PayPalCheckoutButton use. That URL is fixed in @paypal/paypal-js (loadCoreSdkScript), so browser
// tests route it to this script (Playwright's page.route), the way Stripe.js is replaced.
//
//   window.paypal.version                                  "6.x" (loadCoreSdkScript ignores anything else)
//   const sdk = await paypal.createInstance({ clientId | clientToken, components, pageType, locale })
//   await sdk.findEligibleMethods() / sdk.hydrateEligibleMethods()   → { isEligible('paypal'), getDetails() }
//   const session = sdk.createPayPalOneTimePaymentSession({ onApprove, onCancel, onError, onComplete })
//   const session = sdk.createPayPalSubscriptionPaymentSession({ onApprove, onCancel, onError, onComplete })
//     (each throws when its component, 'paypal-payments' / 'paypal-subscriptions', was not asked for)
//   await session.start({ presentationMode }, Promise<{ orderId }> | Promise<{ subscriptionId }>)
//     opens the emulator's buyer page in a popup (/checkoutnow?token=ORDER, or
//     /webapps/billing/subscriptions?subscription_id=I-...); the page posts
//     { source: 'paypal-emulator', type: 'approved' | 'cancelled' } to its opener, and the session
//     calls onApprove({ orderId, payerId } / { subscriptionId, payerId }) or onCancel, then closes it.
//     A popup closed by the buyer is a cancel; a rejected promise or a blocked popup calls onError.
//   session.cancel(), session.destroy(), session.hasReturned() (false: no redirect flow), session.resume()
//   <paypal-button type="pay|subscribe" disabled>: a custom element with one labelled button inside.
(function () {
  'use strict';
  var script = document.currentScript;
  var ORIGIN = window.__paypalEmulatorOrigin || (script && script.src && new URL(script.src).origin);

  function sdkError(code, message) {
    var error = new Error(message);
    error.name = 'PayPalError';
    error.code = code;
    return error;
  }

  var eligibility = {
    isEligible: function (method) {
      return method === 'paypal';
    },
    getDetails: function () {
      return {};
    },
  };

  function paymentSession(kind, callbacks) {
    var popup = null;
    var settled = true;
    var watch = null;

    function stop() {
      window.removeEventListener('message', onMessage);
      if (watch) clearInterval(watch);
      watch = null;
      if (popup && !popup.closed) popup.close();
      popup = null;
    }
    function finish(state, callback, data) {
      if (settled) return Promise.resolve();
      settled = true;
      stop();
      return Promise.resolve()
        .then(function () {
          return callback ? callback(data) : undefined;
        })
        .then(function () {
          if (callbacks.onComplete) callbacks.onComplete({ paymentSessionState: state });
        });
    }
    function fail(error) {
      return finish('error', callbacks.onError, error);
    }
    var current = { id: null };
    function onMessage(event) {
      var data = event.data;
      if (event.origin !== ORIGIN || !data || data.source !== 'paypal-emulator') return;
      var id = kind === 'subscription' ? data.subscriptionID : data.orderID;
      if (id !== current.id) return;
      if (data.type === 'approved') {
        var approved = kind === 'subscription' ? { fundingSource: 'paypal', subscriptionId: id, payerId: data.payerID } : { fundingSource: 'paypal', orderId: id, payerId: data.payerID };
        finish('approved', callbacks.onApprove, approved);
      } else if (data.type === 'cancelled') {
        finish('canceled', callbacks.onCancel, kind === 'subscription' ? {} : { orderId: id });
      }
    }

    return {
      start: function (options, created) {
        if (!settled) return Promise.reject(sdkError('SESSION_IN_PROGRESS', 'A PayPal session is already open.'));
        settled = false;
        current.id = null;
        // Opened at once, inside the click, or the browser blocks it; the buyer page comes after the order.
        popup = window.open('', 'paypal-emulator-checkout', 'popup,width=450,height=640');
        if (!popup) return fail(sdkError('POPUP_BLOCKED', 'The PayPal window was blocked.'));
        window.addEventListener('message', onMessage);
        return Promise.resolve(created)
          .then(function (result) {
            if (settled) return;
            var id = result && (kind === 'subscription' ? result.subscriptionId : result.orderId);
            if (!id) throw sdkError('MISSING_ID', kind === 'subscription' ? 'createSubscription returned no subscriptionId.' : 'createOrder returned no orderId.');
            current.id = id;
            popup.location.href =
              kind === 'subscription'
                ? ORIGIN + '/webapps/billing/subscriptions?subscription_id=' + encodeURIComponent(id)
                : ORIGIN + '/checkoutnow?token=' + encodeURIComponent(id);
            watch = setInterval(function () {
              if (popup && popup.closed) finish('canceled', callbacks.onCancel, kind === 'subscription' ? {} : { orderId: id });
            }, 250);
          })
          .catch(fail);
      },
      cancel: function () {
        finish('canceled', callbacks.onCancel, kind === 'subscription' || !current.id ? {} : { orderId: current.id });
      },
      destroy: function () {
        settled = true;
        stop();
      },
      hasReturned: function () {
        return false;
      },
      resume: function () {
        return Promise.resolve();
      },
    };
  }

  function createInstance(options) {
    if (!options || (!options.clientId && !options.clientToken)) return Promise.reject(sdkError('INVALID_OPTIONS', 'clientId or clientToken is required.'));
    var components = options.components || ['paypal-payments'];
    // Like PayPal's, the buttons speak the instance's locale.
    buttonLocale = String(options.locale || 'en');
    document.querySelectorAll('paypal-button').forEach(function (el) {
      if (el.render) el.render();
    });
    function needs(component) {
      if (components.indexOf(component) < 0) throw sdkError('COMPONENT_NOT_LOADED', 'The "' + component + '" component was not requested.');
    }
    return Promise.resolve({
      findEligibleMethods: function () {
        return Promise.resolve(eligibility);
      },
      hydrateEligibleMethods: function () {
        return eligibility;
      },
      createPayPalOneTimePaymentSession: function (callbacks) {
        needs('paypal-payments');
        return paymentSession('order', callbacks || {});
      },
      createPayPalSubscriptionPaymentSession: function (callbacks) {
        needs('paypal-subscriptions');
        return paymentSession('subscription', callbacks || {});
      },
    });
  }

  var LABELS = { pay: 'Pay with PayPal', subscribe: 'Subscribe with PayPal', checkout: 'PayPal Checkout', buynow: 'Buy now with PayPal' };
  var LABELS_ES = { pay: 'Pagar con PayPal', subscribe: 'Suscribirse con PayPal', checkout: 'Pago con PayPal', buynow: 'Comprar ahora con PayPal' };
  var buttonLocale = 'en';

  if (window.customElements && !window.customElements.get('paypal-button')) {
    // The host element receives the click (React's onClick on <paypal-button>); the inner button gives it a name and a disabled state.
    class PayPalButton extends HTMLElement {
      static get observedAttributes() {
        return ['type', 'disabled'];
      }
      connectedCallback() {
        if (!this.shadowRoot) {
          var root = this.attachShadow({ mode: 'open' });
          var button = document.createElement('button');
          button.type = 'button';
          button.setAttribute('style', 'width:100%;min-height:2.5rem;border:0;border-radius:4px;background:#ffc439;color:#111;font:600 1rem system-ui,sans-serif;cursor:pointer');
          root.appendChild(button);
        }
        this.render();
      }
      attributeChangedCallback() {
        this.render();
      }
      render() {
        var button = this.shadowRoot && this.shadowRoot.querySelector('button');
        if (!button) return;
        var labels = buttonLocale.toLowerCase().indexOf('es') === 0 ? LABELS_ES : LABELS;
        button.textContent = labels[this.getAttribute('type') || 'pay'] || labels.pay;
        button.disabled = this.hasAttribute('disabled');
      }
    }
    window.customElements.define('paypal-button', PayPalButton);
  }

  window.paypal = { version: '6.0.0-emulator', createInstance: createInstance };
})();
