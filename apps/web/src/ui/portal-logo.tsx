import { useState } from 'react';

/**
 * The portal's logo, or the default Sportello mark when it has none or the signed URL no longer loads.
 * `alt` is empty when a visible name or the surrounding button already says what it is.
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
        style={{ maxHeight: 40, maxWidth: 160, objectFit: 'contain' }}
        onError={() => setFailedUrl(logoUrl)}
      />
    );
  return <img src="/favicon.svg" alt={alt} className={className} width={36} height={36} />;
}
