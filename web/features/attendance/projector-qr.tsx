import QRCode from 'qrcode';
import { useMemo } from 'react';

/** ISO/IEC 18004's quiet zone: four modules of white around the symbol, drawn inside the image. */
const QUIET_ZONE_MODULES = 4;

/**
 * The scan URL as a QR code drawn in the browser, for the projector (docs/projector-readability.md):
 * a vector with whole modules stays sharp at any size, where the server's 384 px PNG (one module of
 * margin) would be stretched unevenly. Error correction L: a projected code is never scuffed, and
 * the smaller version it allows gives about 10% larger modules for the back of the room.
 * `data-modules` (symbol plus quiet zone) lets a test work out the module size on screen.
 */
export function ProjectorQr({ text, label, className }: { text: string; label: string; className?: string }) {
  const { modules, path } = useMemo(() => {
    const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'L' }).modules;
    // One rectangle per horizontal run of dark modules.
    let d = '';
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (!data[y * size + x]) continue;
        const start = x;
        while (x + 1 < size && data[y * size + x + 1]) x++;
        d += `M${start + QUIET_ZONE_MODULES} ${y + QUIET_ZONE_MODULES}h${x - start + 1}v1h-${x - start + 1}z`;
      }
    }
    return { modules: size + 2 * QUIET_ZONE_MODULES, path: d };
  }, [text]);

  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges" data-modules={modules} className={className}>
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
