// What a product's video_src plays as (spec part 2 §2: the floating walkthrough video): YouTube and Vimeo
// links through their embed players, any other http(s) address as a video file. Anything else (javascript:,
// data:, a relative path with no origin) plays nothing.
export type VideoSource = { kind: 'embed'; src: string } | { kind: 'file'; src: string };

const YOUTUBE_ID = /^[\w-]{6,20}$/;

export function videoSource(raw: string | null | undefined): VideoSource | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.replace(/^(www|m)\./, '');
  if (host === 'youtube.com' || host === 'youtube-nocookie.com' || host === 'youtu.be') {
    const id =
      host === 'youtu.be' ? url.pathname.slice(1) : url.pathname === '/watch' ? url.searchParams.get('v') : /^\/(embed|shorts)\/([^/]+)/.exec(url.pathname)?.[2];
    return id && YOUTUBE_ID.test(id) ? { kind: 'embed', src: `https://www.youtube-nocookie.com/embed/${id}` } : null;
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = /\/(?:video\/)?(\d+)/.exec(url.pathname)?.[1];
    return id ? { kind: 'embed', src: `https://player.vimeo.com/video/${id}` } : null;
  }
  return { kind: 'file', src: url.href };
}
