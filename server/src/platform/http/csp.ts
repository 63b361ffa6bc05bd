// The app's Content-Security-Policy directives (helmet's format), built once at boot (app.ts). Hosts are
// listed, not `https:`: a frame or request to any other origin is refused (issue 30 item 13).
import { sameHostWebSockets, scriptNonceSource } from './index-html';

/** The payment providers' origins (features/payments/checkout-config.ts paymentCspSources). */
export interface CspPaymentSources {
  script: string[];
  frame: string[];
  connect: string[];
}

/** The players tutorials and the walkthrough video embed (common/tutorials.ts tutorialPlayer, web video-source.ts). */
const VIDEO_FRAMES = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'];

type DirectiveSource = string | ((req: { headers: { host?: string } }, res: object) => string);

export function appCspDirectives(payments: CspPaymentSources, extraOrigins: string[]): Record<string, DirectiveSource[] | null> {
  return {
    defaultSrc: ["'self'"],
    // Only scripts the server put on the page run: a fresh nonce per response (index-html.ts), given
    // to our own scripts and to the admin's tracking codes; 'strict-dynamic' extends trust to what
    // they load. No 'unsafe-inline', no host list: an injected script cannot run (docs/decisions.md).
    // The payment hosts are the fallback of browsers without 'strict-dynamic' (which ignores host lists).
    scriptSrc: ["'self'", scriptNonceSource, "'strict-dynamic'", ...payments.script],
    // Styles stay inline-capable: Mantine injects <style> elements and the admin's app_css is one.
    styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
    // Images stay https:: staff give logos, landing images and product and tutorial thumbnails as addresses
    // on any host, and an answer's image from another site loads on the user's click. An image runs nothing.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    // Walkthrough videos and tutorials may be video files on any host.
    mediaSrc: ["'self'", 'blob:', 'https:'],
    // Frames: the payment providers' (Payment Element, 3-D Secure, PayPal buttons), the video players,
    // and the operator's CSP_EXTRA_ORIGINS (a tag manager's frame).
    frameSrc: ["'self'", ...payments.frame, ...VIDEO_FRAMES, ...extraOrigins],
    // Requests: this host (API, Socket.IO), the payment providers' APIs, and CSP_EXTRA_ORIGINS (analytics
    // beacons). The browser never calls an AI provider or the object store: the server does.
    connectSrc: ["'self'", sameHostWebSockets, ...payments.connect, ...extraOrigins],
    fontSrc: ["'self'", 'data:', 'https:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'self'"],
    upgradeInsecureRequests: null,
  };
}
