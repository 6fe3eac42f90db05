import Bowser from 'bowser';

export interface DeviceInfo {
  browser: string | null;
  os: string | null;
  device: 'desktop' | 'mobile' | 'tablet' | null;
}

/** What a session's user agent says, for its owner to recognise it ("Chrome on Windows, desktop"). */
export function describeUserAgent(ua: string | null | undefined): DeviceInfo {
  if (!ua) return { browser: null, os: null, device: null };
  const p = Bowser.parse(ua);
  const type = p.platform.type;
  return {
    browser: p.browser.name ?? null,
    os: p.os.name ?? null,
    device: type === 'mobile' || type === 'tablet' || type === 'desktop' ? type : null,
  };
}
