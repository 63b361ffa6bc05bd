// Stripe.js stand-in for tests and the offline demo, served by the Stripe emulator at
// /_emulator/stripe.js. It is NOT Stripe.js: it implements only what Pluma's web calls, against the
// emulator, with a plain card form instead of Stripe's iframes. Load it before calling
// @stripe/stripe-js's loadStripe(), which then uses this `window.Stripe`.
//
//   const stripe = Stripe('pk_test_...');
//   const elements = stripe.elements({ clientSecret, appearance, locale });
//   // or a deferred intent: { mode, amount, currency, setupFutureUsage? }, and with a customer session
//   // { customerSessionClientSecret }: the Payment Element then lists the customer's saved cards
//   // (GET /v1/elements/sessions: redisplay on, allow_redisplay in the session's filters) as radios
//   // next to "New card", and shows the save checkbox when payment_method_save is enabled.
//   elements.create('payment').mount(node);          // card number, expiry, CVC with labels
//   await elements.submit();                          // { error } when the form is incomplete
//   await stripe.confirmPayment({ elements, confirmParams: { return_url }, redirect: 'if_required' });
//   await stripe.confirmSetup({ elements, confirmParams: { return_url }, redirect: 'if_required' });
//     → { paymentIntent } / { setupIntent } / { error }, like Stripe.js. A card asking for 3-D Secure
//       (4000002500003155) opens an in-page challenge with Complete and Fail buttons.
//   stripe.confirmCardPayment(clientSecret, { payment_method: 'pm_...' }), stripe.handleNextAction({ clientSecret }),
//   stripe.retrievePaymentIntent(clientSecret), stripe.retrieveSetupIntent(clientSecret).
// Also present so @stripe/react-stripe-js accepts the object: createToken, createPaymentMethod.
(function () {
  'use strict';
  var script = document.currentScript;
  var ORIGIN = (script && script.src && new URL(script.src).origin) || window.__stripeEmulatorOrigin;

  var TEXTS = {
    en: {
      number: 'Card number', expiry: 'Expiration date (MM / YY)', cvc: 'Security code', incomplete: 'Your card details are incomplete.', expiryInvalid: "Your card's expiration date is incomplete.",
      saved: 'Saved cards', ending: '{brand} ending in {last4}', newCard: 'New card', save: 'Save my card for future purchases',
    },
    es: {
      number: 'Número de tarjeta', expiry: 'Fecha de caducidad (MM / AA)', cvc: 'Código de seguridad', incomplete: 'Los datos de tu tarjeta están incompletos.', expiryInvalid: 'La fecha de caducidad de tu tarjeta está incompleta.',
      saved: 'Tarjetas guardadas', ending: '{brand} terminada en {last4}', newCard: 'Nueva tarjeta', save: 'Guardar mi tarjeta para futuras compras',
    },
  };
  var BRANDS = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
  var NEW_CARD = 'new';

  function form(fields) {
    var parts = [];
    Object.keys(fields).forEach(function (k) {
      if (fields[k] !== undefined && fields[k] !== null && fields[k] !== '') parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(fields[k]));
    });
    return parts.join('&');
  }

  function intentPath(clientSecret) {
    var id = String(clientSecret || '').split('_secret_')[0];
    return { id: id, kind: id.indexOf('seti_') === 0 ? 'setup_intents' : 'payment_intents', field: id.indexOf('seti_') === 0 ? 'setupIntent' : 'paymentIntent' };
  }

  function integrationError(message) {
    return { error: { type: 'invalid_request_error', message: message } };
  }

  function PaymentElement(elements, options) {
    this._elements = elements;
    this._options = options || {};
    this._handlers = {};
    this._root = null;
  }
  PaymentElement.prototype.on = function (event, handler) {
    (this._handlers[event] = this._handlers[event] || []).push(handler);
    return this;
  };
  PaymentElement.prototype.once = PaymentElement.prototype.on;
  PaymentElement.prototype.off = function (event, handler) {
    this._handlers[event] = (this._handlers[event] || []).filter(function (h) { return h !== handler; });
    return this;
  };
  PaymentElement.prototype._emit = function (event, payload) {
    (this._handlers[event] || []).slice().forEach(function (h) { h(payload); });
  };
  PaymentElement.prototype.update = function (options) {
    Object.assign(this._options, options || {});
  };
  PaymentElement.prototype._texts = function () {
    return TEXTS[(this._elements._options.locale || 'en').slice(0, 2)] || TEXTS.en;
  };
  PaymentElement.prototype.mount = function (target) {
    var node = typeof target === 'string' ? document.querySelector(target) : target;
    if (!node) throw new Error('Stripe emulator: mount target not found');
    var t = this._texts();
    var root = document.createElement('div');
    root.className = 'stripe-emulator-payment-element';
    root.setAttribute('data-testid', 'stripe-emulator-payment-element');
    this._saved = [];
    this._selected = NEW_CARD;
    this._features = null;
    this._savedBox = document.createElement('fieldset');
    this._savedBox.hidden = true;
    root.appendChild(this._savedBox);
    this._cardBox = document.createElement('div');
    root.appendChild(this._cardBox);
    var cardBox = this._cardBox;
    function field(name, label, autocomplete, placeholder) {
      var wrap = document.createElement('label');
      wrap.style.display = 'block';
      wrap.appendChild(document.createTextNode(label));
      var input = document.createElement('input');
      input.name = name;
      input.setAttribute('autocomplete', autocomplete);
      input.setAttribute('inputmode', 'numeric');
      input.placeholder = placeholder;
      input.style.display = 'block';
      wrap.appendChild(input);
      cardBox.appendChild(wrap);
      return input;
    }
    this._number = field('cardnumber', t.number, 'cc-number', '1234 1234 1234 1234');
    this._expiry = field('exp-date', t.expiry, 'cc-exp', 'MM / YY');
    this._cvc = field('cvc', t.cvc, 'cc-csc', 'CVC');
    this._save = null;
    this._error = document.createElement('p');
    this._error.setAttribute('role', 'alert');
    root.appendChild(this._error);
    var self = this;
    this._cardBox.addEventListener('input', function () { self._changed(); });
    node.appendChild(root);
    this._root = root;
    var secret = this._elements._options.customerSessionClientSecret;
    if (!secret) {
      setTimeout(function () { self._emit('ready', { elementType: 'payment' }); }, 0);
      return;
    }
    this._elements._stripe._api('GET', '/v1/elements/sessions', { customer_session_client_secret: secret }).then(function (session) {
      if (!self._root) return;
      if (session.error) {
        self._emit('loaderror', { elementType: 'payment', error: session.error });
        return;
      }
      var features = session.customer.customer_session.components.payment_element.features || {};
      // Since API 2026-03-25.dahlia, save usage comes from the session or from setupFutureUsage, never both.
      if (features.payment_method_save === 'enabled' && features.payment_method_save_usage && self._elements._options.setupFutureUsage) {
        self._emit('loaderror', { elementType: 'payment', error: { type: 'invalid_request_error', message: 'IntegrationError: payment_method_save_usage on the CustomerSession and setupFutureUsage cannot both be set.' } });
        return;
      }
      self._features = features;
      self._showSaved(session.customer.payment_methods, session.customer.default_payment_method);
      if (features.payment_method_save === 'enabled') self._showSaveBox();
      self._emit('ready', { elementType: 'payment' });
      if (self._selected !== NEW_CARD) self._changed();
    });
  };
  /** Saved cards as a radio group, the customer's default (else the newest) chosen first. */
  PaymentElement.prototype._showSaved = function (methods, defaultId) {
    var t = this._texts();
    var self = this;
    this._saved = methods || [];
    if (!this._saved.length) return;
    var legend = document.createElement('legend');
    legend.textContent = t.saved;
    this._savedBox.appendChild(legend);
    var preferred = this._saved.some(function (pm) { return pm.id === defaultId; }) ? defaultId : this._saved[0].id;
    this._radios = [];
    this._saved.map(function (pm) {
      var brand = BRANDS[pm.card.brand] || pm.card.brand;
      return { value: pm.id, text: t.ending.replace('{brand}', brand).replace('{last4}', pm.card.last4) };
    }).concat([{ value: NEW_CARD, text: t.newCard }]).forEach(function (choice) {
      var wrap = document.createElement('label');
      wrap.style.display = 'block';
      var radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'stripe-emulator-saved-card';
      radio.value = choice.value;
      radio.checked = choice.value === preferred;
      radio.addEventListener('change', function () { if (radio.checked) self._select(choice.value); });
      wrap.appendChild(radio);
      wrap.appendChild(document.createTextNode(' ' + choice.text));
      self._savedBox.appendChild(wrap);
      self._radios.push(radio);
    });
    this._savedBox.hidden = false;
    this._select(preferred, true);
  };
  PaymentElement.prototype._showSaveBox = function () {
    var wrap = document.createElement('label');
    wrap.style.display = 'block';
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'save-payment-method';
    wrap.appendChild(box);
    wrap.appendChild(document.createTextNode(' ' + this._texts().save));
    this._cardBox.appendChild(wrap);
    this._save = box;
  };
  PaymentElement.prototype._select = function (value, quiet) {
    this._selected = value;
    this._cardBox.hidden = value !== NEW_CARD;
    this._showError(null);
    if (!quiet) this._changed();
  };
  PaymentElement.prototype._savedMethod = function () {
    var id = this._selected;
    return this._saved.filter(function (pm) { return pm.id === id; })[0] || null;
  };
  PaymentElement.prototype._changed = function () {
    var saved = this._savedMethod();
    if (saved) {
      this._emit('change', { elementType: 'payment', empty: false, complete: true, collapsed: false, value: { type: 'card', payment_method: saved } });
      return;
    }
    var value = this._value();
    this._emit('change', { elementType: 'payment', empty: !value.number && !value.expiry && !value.cvc, complete: !this._validate(), collapsed: false, value: { type: 'card' } });
  };
  PaymentElement.prototype.unmount = function () {
    if (this._root && this._root.parentNode) this._root.parentNode.removeChild(this._root);
    this._root = null;
  };
  PaymentElement.prototype.destroy = function () {
    this.unmount();
    delete this._elements._elements.payment;
  };
  PaymentElement.prototype.focus = function () { if (this._number) this._number.focus(); };
  PaymentElement.prototype.blur = function () {};
  PaymentElement.prototype.clear = function () {
    [this._number, this._expiry, this._cvc].forEach(function (i) { if (i) i.value = ''; });
    if (this._save) this._save.checked = false;
  };
  PaymentElement.prototype.collapse = function () {};
  PaymentElement.prototype._value = function () {
    return {
      number: this._number ? this._number.value.replace(/\D/g, '') : '',
      expiry: this._expiry ? this._expiry.value.replace(/[^\d/]/g, '') : '',
      cvc: this._cvc ? this._cvc.value.replace(/\D/g, '') : '',
    };
  };
  /** The validation error Stripe.js gives for an incomplete form, or null. */
  PaymentElement.prototype._validate = function () {
    if (this._savedMethod()) return null;
    var t = this._texts();
    var v = this._value();
    if (v.number.length < 12) return { type: 'validation_error', code: 'incomplete_number', message: t.incomplete };
    var m = /^(\d{1,2})\/?(\d{2,4})$/.exec(v.expiry.replace(/\s/g, ''));
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) return { type: 'validation_error', code: 'incomplete_expiry', message: t.expiryInvalid };
    if (v.cvc.length < 3) return { type: 'validation_error', code: 'incomplete_cvc', message: t.incomplete };
    return null;
  };
  /**
   * What confirm sends for the chosen card: a saved card's id, or the typed card. With a customer session,
   * the save checkbox sets allow_redisplay ('always' when ticked, else 'limited') and, for a PaymentIntent
   * (mode payment), a ticked box also sets setup_future_usage to the session's payment_method_save_usage.
   */
  PaymentElement.prototype._cardFields = function (intentKind) {
    var saved = this._savedMethod();
    if (saved) return { payment_method: saved.id };
    var v = this._value();
    var m = /^(\d{1,2})\/?(\d{2,4})$/.exec(v.expiry.replace(/\s/g, ''));
    var fields = {
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': v.number,
      'payment_method_data[card][exp_month]': m ? m[1] : '',
      'payment_method_data[card][exp_year]': m ? m[2] : '',
      'payment_method_data[card][cvc]': v.cvc,
    };
    if (this._save) {
      fields['payment_method_data[allow_redisplay]'] = this._save.checked ? 'always' : 'limited';
      var usage = this._features && this._features.payment_method_save_usage;
      if (this._save.checked && usage && intentKind === 'payment_intents' && this._elements._options.mode !== 'subscription') fields.setup_future_usage = usage;
    }
    return fields;
  };
  PaymentElement.prototype._showError = function (error) {
    if (this._error) this._error.textContent = error ? error.message : '';
  };

  function Elements(stripe, options) {
    this._stripe = stripe;
    this._options = options || {};
    this._elements = {};
  }
  Elements.prototype.create = function (type, options) {
    if (type !== 'payment') throw new Error('Stripe emulator: only the Payment Element is implemented (asked for "' + type + '")');
    var element = new PaymentElement(this, options);
    this._elements.payment = element;
    return element;
  };
  Elements.prototype.getElement = function (type) { return this._elements[type] || null; };
  Elements.prototype.update = function (options) { Object.assign(this._options, options || {}); };
  Elements.prototype.fetchUpdates = function () { return Promise.resolve({}); };
  Elements.prototype.submit = function () {
    var element = this._elements.payment;
    if (!element) return Promise.resolve(integrationError('No Payment Element is mounted.'));
    var error = element._validate();
    element._showError(error);
    return Promise.resolve(error ? { error: error } : { selectedPaymentMethod: 'card' });
  };

  function StripeEmulator(key) {
    this._key = key;
  }
  StripeEmulator.prototype.elements = function (options) { return new Elements(this, options); };
  StripeEmulator.prototype.registerAppInfo = function () {};
  StripeEmulator.prototype._registerWrapper = function () {};

  StripeEmulator.prototype._api = function (method, path, fields) {
    var body = form(Object.assign({ key: this._key }, fields));
    var url = ORIGIN + path + (method === 'GET' ? '?' + body : '');
    return fetch(url, { method: method, headers: method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }, body: method === 'GET' ? undefined : body })
      .then(function (res) { return res.json(); })
      .catch(function () { return { error: { type: 'api_connection_error', message: 'We could not reach the Stripe emulator.' } }; });
  };

  StripeEmulator.prototype._retrieve = function (clientSecret) {
    var p = intentPath(clientSecret);
    return this._api('GET', '/v1/' + p.kind + '/' + p.id, { client_secret: clientSecret });
  };
  StripeEmulator.prototype.retrievePaymentIntent = function (clientSecret) {
    return this._retrieve(clientSecret).then(function (r) { return r.error ? { error: r.error } : { paymentIntent: r }; });
  };
  StripeEmulator.prototype.retrieveSetupIntent = function (clientSecret) {
    return this._retrieve(clientSecret).then(function (r) { return r.error ? { error: r.error } : { setupIntent: r }; });
  };

  /** Turns an intent (after confirm or challenge) into Stripe.js's result, redirecting when asked. */
  StripeEmulator.prototype._settle = function (intent, clientSecret, options) {
    var self = this;
    var p = intentPath(clientSecret);
    if (intent.error) return Promise.resolve({ error: intent.error });
    if (intent.status === 'requires_action') {
      return challenge(intent).then(function (outcome) {
        return fetch(ORIGIN + '/_emulator/3ds/' + p.id, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome: outcome, client_secret: clientSecret }) })
          .then(function () { return self._retrieve(clientSecret); })
          .then(function (next) { return self._settle(next, clientSecret, options); });
      });
    }
    var lastError = intent.last_payment_error || intent.last_setup_error;
    if (intent.status === 'requires_payment_method' && lastError) {
      var error = Object.assign({}, lastError);
      error[p.field === 'setupIntent' ? 'setup_intent' : 'payment_intent'] = intent;
      return Promise.resolve({ error: error });
    }
    var returnUrl = options.confirmParams && options.confirmParams.return_url;
    if (options.redirect !== 'if_required' && returnUrl) {
      var url = new URL(returnUrl, window.location.href);
      var kind = p.field === 'setupIntent' ? 'setup_intent' : 'payment_intent';
      url.searchParams.set(kind, intent.id);
      url.searchParams.set(kind + '_client_secret', clientSecret);
      url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : intent.status);
      window.location.assign(url.toString());
      return new Promise(function () {});
    }
    var result = {};
    result[p.field] = intent;
    return Promise.resolve(result);
  };

  StripeEmulator.prototype._confirm = function (options, field) {
    options = options || {};
    var elements = options.elements;
    var clientSecret = options.clientSecret || (elements && elements._options.clientSecret);
    if (!clientSecret) return Promise.resolve(integrationError('Stripe emulator: confirm needs a clientSecret (in elements() or the call).'));
    var p = intentPath(clientSecret);
    if (p.field !== field) return Promise.resolve(integrationError('This client secret belongs to a ' + (p.field === 'setupIntent' ? 'SetupIntent; use confirmSetup' : 'PaymentIntent; use confirmPayment') + '.'));
    var confirmParams = options.confirmParams || {};
    var fields = { client_secret: clientSecret, return_url: confirmParams.return_url, use_stripe_sdk: 'true' };
    if (confirmParams.payment_method) fields.payment_method = confirmParams.payment_method;
    else {
      var element = elements && elements.getElement('payment');
      if (!element) return Promise.resolve(integrationError('No Payment Element is mounted.'));
      var invalid = element._validate();
      element._showError(invalid);
      if (invalid) return Promise.resolve({ error: invalid });
      Object.assign(fields, element._cardFields(p.kind));
    }
    var self = this;
    return this._api('POST', '/v1/' + p.kind + '/' + p.id + '/confirm', fields).then(function (intent) {
      return self._settle(intent, clientSecret, options);
    });
  };
  StripeEmulator.prototype.confirmPayment = function (options) { return this._confirm(options, 'paymentIntent'); };
  StripeEmulator.prototype.confirmSetup = function (options) { return this._confirm(options, 'setupIntent'); };

  /** Saved-card flows: confirm with a PaymentMethod id, then run any 3-D Secure step. */
  StripeEmulator.prototype.confirmCardPayment = function (clientSecret, data) {
    var self = this;
    var fields = { client_secret: clientSecret, use_stripe_sdk: 'true' };
    if (data && typeof data.payment_method === 'string') fields.payment_method = data.payment_method;
    var p = intentPath(clientSecret);
    return this._api('POST', '/v1/' + p.kind + '/' + p.id + '/confirm', fields).then(function (intent) {
      return self._settle(intent, clientSecret, { redirect: 'if_required' });
    });
  };
  StripeEmulator.prototype.handleNextAction = function (options) {
    var self = this;
    var clientSecret = options && options.clientSecret;
    return this._retrieve(clientSecret).then(function (intent) { return self._settle(intent, clientSecret, { redirect: 'if_required' }); });
  };
  StripeEmulator.prototype.createPaymentMethod = function () {
    return Promise.resolve(integrationError('Stripe emulator: createPaymentMethod is not implemented.'));
  };
  StripeEmulator.prototype.createToken = function () {
    return Promise.resolve(integrationError('Stripe emulator: createToken is not implemented (legacy Card Element).'));
  };

  /** The in-page 3-D Secure challenge: resolves 'succeed' or 'fail' by the button pressed. */
  function challenge(intent) {
    return new Promise(function (resolve) {
      var overlay = document.createElement('div');
      overlay.setAttribute('data-testid', 'stripe-emulator-3ds');
      overlay.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:2147483647';
      var dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-labelledby', 'stripe-emulator-3ds-title');
      dialog.style.cssText = 'background:#fff;color:#111;padding:24px;border-radius:8px;max-width:360px;font:16px sans-serif';
      var title = document.createElement('h2');
      title.id = 'stripe-emulator-3ds-title';
      title.textContent = '3-D Secure test challenge';
      var text = document.createElement('p');
      text.textContent = intent.object === 'payment_intent'
        ? 'Authenticate a payment of ' + (intent.amount / 100).toFixed(2) + ' ' + String(intent.currency).toUpperCase() + '.'
        : 'Authenticate saving your card.';
      dialog.appendChild(title);
      dialog.appendChild(text);
      [['succeed', 'Complete'], ['fail', 'Fail']].forEach(function (pair) {
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = pair[1];
        button.style.marginRight = '8px';
        button.addEventListener('click', function () {
          overlay.remove();
          resolve(pair[0]);
        });
        dialog.appendChild(button);
      });
      overlay.appendChild(dialog);
      document.body.appendChild(overlay);
      dialog.querySelector('button').focus();
    });
  }

  window.Stripe = function Stripe(publishableKey) {
    if (!publishableKey) throw new Error('Stripe emulator: a publishable key is required.');
    return new StripeEmulator(publishableKey);
  };
  // @stripe/stripe-js warns when this differs from the release train it expects (v3 / 'basil' / ...).
  window.Stripe.version = window.__stripeEmulatorVersion || 3;
  window.Stripe.emulator = true;
})();
