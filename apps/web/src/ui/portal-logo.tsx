import { useState } from 'react';

const LOGO_HEIGHT = 40;

/**
 * The portal's logo, or the default Sportello mark when it has none or the signed URL no longer loads.
 * `alt` is empty when a visible name or the surrounding button already says what it is. Its height is
 * fixed (40 px, the header's room) before the image arrives, so the header does not grow when it does;
 * the width follows the image's proportions, up to 160 px.
 */
export function PortalLogo({
  logoUrl,
  alt,
  className,
}: {
  logoUrl: string | null | undefined;
  alt: string;
  className?: string;
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (logoUrl && failedUrl !== logoUrl)
    return (
      <img
        src={logoUrl}
        alt={alt}
        className={className}
        height={LOGO_HEIGHT}
        style={{
          display: 'block',
          height: LOGO_HEIGHT,
          width: 'auto',
          // A phone's header narrows it (shell.module.css): it shares 360 px with the buttons.
          maxWidth: 'var(--portal-logo-max-width, 160px)',
          objectFit: 'contain',
        }}
        onError={() => setFailedUrl(logoUrl)}
      />
    );
  return (
    <img
      src="/favicon.svg"
      alt={alt}
      className={className}
      width={36}
      height={36}
      style={{ display: 'block' }}
    />
  );
}
