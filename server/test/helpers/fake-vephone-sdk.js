/**
 * A stand-in for Volcengine's vePhoneSDK-Web.js (the ACEP Web H5 SDK, docs 6394/95321 and 6394/75744),
 * for the tests only: the same global (`window.vePhoneSDK`), constructor config (userId, accountId,
 * domId…), `start({ productId, podId, token })` with the STS keys, `stop`, `destroy`, `on`/`off`, and the
 * static `isRtcSupported`. Like the real SDK it authenticates the keys with its service before it shows
 * anything: it asks the fake ACEP (its address is written in by writeFakeSdk, as the real SDK has
 * Volcengine's hosts built in) to start the pod, proving it holds the secret with an HMAC-SHA256 of what
 * it asks. A refusal rejects start() with the SDK's { errorCode, errorMessage } (StartErrorCode, docs
 * 6394/1158619); a started stream draws the pod's frame in the DOM element.
 */
window.vePhoneSDK = (function () {
  const ENDPOINT = '__FAKE_ACEP_ENDPOINT__'

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer))
      .map(function (b) {
        return b.toString(16).padStart(2, '0')
      })
      .join('')
  }

  async function hmac(secret, text) {
    const enc = new TextEncoder()
    const key = await crypto.subtle.importKey(
      'raw',
      enc.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    return hex(await crypto.subtle.sign('HMAC', key, enc.encode(text)))
  }

  function startError(code, message) {
    const error = new Error(message)
    error.errorCode = code
    error.errorMessage = message
    return error
  }

  function vePhoneSDK(config) {
    if (!config || !config.userId || !config.accountId || !config.domId) {
      throw startError(10000, 'userId, accountId and domId are required')
    }
    this.config = config
    this.listeners = {}
    this.state = 'IDLE'
  }

  vePhoneSDK.isRtcSupported = function () {
    return typeof RTCPeerConnection === 'function'
  }

  vePhoneSDK.prototype.on = function (event, callback) {
    this.listeners[event] = (this.listeners[event] || []).concat([callback])
  }

  vePhoneSDK.prototype.off = function (event, callback) {
    this.listeners[event] = (this.listeners[event] || []).filter(function (cb) {
      return cb !== callback
    })
  }

  vePhoneSDK.prototype.emit = function (event, data) {
    const callbacks = this.listeners[event] || []
    callbacks.forEach(function (cb) {
      cb(data)
    })
  }

  vePhoneSDK.prototype.getConnectionState = function () {
    return this.state
  }

  vePhoneSDK.prototype.start = async function (options) {
    const token = options && options.token
    if (!options || !options.productId || !options.podId) {
      throw startError(10000, 'productId and podId are required')
    }
    if (!token || !token.AccessKeyID || !token.SecretAccessKey || !token.SessionToken) {
      throw startError(10009, 'token is required')
    }
    const root = document.getElementById(this.config.domId)
    if (!root) throw startError(10000, 'no element #' + this.config.domId)
    const ask = {
      accessKeyId: token.AccessKeyID,
      sessionToken: token.SessionToken,
      productId: String(options.productId),
      podId: String(options.podId),
      accountId: String(this.config.accountId),
      userId: String(this.config.userId),
      date: new Date().toISOString(),
    }
    ask.signature = await hmac(
      token.SecretAccessKey,
      [ask.productId, ask.podId, ask.accountId, ask.userId, ask.date].join('\n'),
    )
    this.state = 'CONNECTING'
    let response
    try {
      response = await fetch(ENDPOINT + '/sdk/start', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ask),
      })
    } catch (e) {
      this.state = 'DISCONNECTED'
      throw startError(10001, 'cannot reach the service')
    }
    const body = await response.json()
    if (!response.ok) {
      this.state = 'DISCONNECTED'
      throw startError(body.errorCode, body.errorMessage)
    }
    const frame = document.createElement('div')
    frame.className = 've-phone-frame'
    frame.setAttribute('data-pod-id', body.podId)
    frame.style.cssText =
      'position:absolute;inset:0;display:flex;align-items:center;justify-content:center;' +
      'background:linear-gradient(160deg,#1d6fe0,#00b578);color:#fff;font-size:16px;text-align:center'
    frame.textContent = body.frame
    root.innerHTML = ''
    root.appendChild(frame)
    this.state = 'CONNECTED'
    this.emit('on-first-frame', { podId: body.podId })
    return { podId: body.podId }
  }

  vePhoneSDK.prototype.stop = async function () {
    const root = document.getElementById(this.config.domId)
    if (root) root.innerHTML = ''
    this.state = 'DISCONNECTED'
  }

  vePhoneSDK.prototype.destroy = async function () {
    this.listeners = {}
  }

  return vePhoneSDK
})()
