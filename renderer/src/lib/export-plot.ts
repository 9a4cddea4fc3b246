/**
 * Saving a drawn plot: its SVG as a standalone file, or a PNG at twice its size, drawn from
 * that SVG on a canvas. The SVG is self-contained (Plot puts its styles inside it). The image
 * is loaded from a data: URL, which the content security policy allows for images.
 */

/** The plot's SVG as the text of a standalone .svg file. */
export function svgText(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function saveSvg(svg: SVGSVGElement, name: string): void {
  save(new Blob([svgText(svg)], { type: 'image/svg+xml' }), `${name}.svg`);
}

export async function pngBlob(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const { width, height } = svg.getBoundingClientRect();
  const img = new Image();
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText(svg));
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not make a PNG'))), 'image/png'),
  );
}

export async function savePng(svg: SVGSVGElement, name: string): Promise<void> {
  save(await pngBlob(svg), `${name}.png`);
}
