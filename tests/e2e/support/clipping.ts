// Text a reader cannot see whole: elements under `selectors` whose text is cut
// by their own box (overflow hidden or clip, or an ellipsis) horizontally or
// vertically, and SVG text that runs past the edges of its chart. A box that
// scrolls (overflow auto) is not clipping: its reader can scroll it. Hidden
// elements are skipped. Each entry names the element and its text.
import type { Page } from 'playwright-core';

export async function clippedText(page: Page, selectors: string[] = ['body']): Promise<string[]> {
  return page.evaluate((roots) => {
    const found: string[] = [];
    const describe = (node: Element, why: string) => {
      const id = node.id ? `#${node.id}` : '';
      const classes = typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
      const text = (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
      return `${node.tagName.toLowerCase()}${id}${classes} (${why}): “${text}”`;
    };
    const hides = (value: string) => value === 'hidden' || value === 'clip';
    const seen = new Set<Element>();
    for (const root of roots.flatMap((selector) => Array.from(document.querySelectorAll(selector)))) {
      for (const node of [root, ...Array.from(root.querySelectorAll('*'))]) {
        if (seen.has(node)) continue;
        seen.add(node);
        if (node instanceof HTMLElement) {
          if (node.getClientRects().length === 0 || (node.textContent ?? '').trim() === '') continue;
          const style = getComputedStyle(node);
          const cutX = (hides(style.overflowX) || style.textOverflow === 'ellipsis') && node.scrollWidth > node.clientWidth + 1;
          const cutY = hides(style.overflowY) && node.scrollHeight > node.clientHeight + 1;
          if (cutX || cutY) found.push(describe(node, `${cutX ? `${node.scrollWidth} > ${node.clientWidth} px wide` : ''}${cutX && cutY ? ', ' : ''}${cutY ? `${node.scrollHeight} > ${node.clientHeight} px high` : ''}`));
        } else if (node instanceof SVGTextElement && node.getClientRects().length > 0) {
          // On screen, rotation and scaling included: a chart cuts what runs past its edges.
          const chart = node.ownerSVGElement;
          if (chart === null) continue;
          const box = node.getBoundingClientRect();
          const edges = chart.getBoundingClientRect();
          const outside = box.left < edges.left - 0.5 || box.top < edges.top - 0.5 || box.right > edges.right + 0.5 || box.bottom > edges.bottom + 0.5;
          if (outside) found.push(describe(node, `outside #${chart.id}`));
        }
      }
    }
    return found;
  }, selectors);
}
