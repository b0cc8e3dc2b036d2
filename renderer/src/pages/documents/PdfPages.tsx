import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { Spinner, ErrorBanner } from '../../ui/components';
import { fetchPdfFile, pdfKey, type PdfSource } from './docs-api';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Loads a PDF from the API once per source. */
export function usePdf(source: PdfSource) {
  const key = pdfKey(source);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setDoc(null);
    setError(null);
    fetchPdfFile(JSON.parse(key) as PdfSource)
      .then(({ data }) => getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise)
      .then((d) => {
        loaded = d;
        if (!cancelled) setDoc(d);
        else void d.destroy();
      })
      .catch((err: Error) => !cancelled && setError(err.message));
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [key]);
  return { doc, error };
}

function PdfPage({ doc, pageNumber, width, children }: { doc: PDFDocumentProxy; pageNumber: number; width: number; children?: ReactNode }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [height, setHeight] = useState(width * 1.294);
  const [rendered, setRendered] = useState(false);
  useEffect(() => {
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    let cancelled = false;
    void doc.getPage(pageNumber).then((page) => {
      if (cancelled || !canvas.current) return;
      const base = page.getViewport({ scale: 1 });
      const scale = width / base.width;
      const viewport = page.getViewport({ scale: scale * (window.devicePixelRatio || 1) });
      const c = canvas.current;
      c.width = viewport.width;
      c.height = viewport.height;
      setHeight(base.height * scale);
      task = page.render({ canvas: c, viewport });
      task.promise.then(() => !cancelled && setRendered(true)).catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNumber, width]);
  return (
    <div className="pdf-page" style={{ width, height }} data-page={pageNumber} data-rendered={rendered || undefined}>
      <canvas ref={canvas} style={{ width, height }} role="img" aria-label={`Page ${pageNumber}`} />
      <div className="pdf-overlay">{children}</div>
    </div>
  );
}

/** The content width of an element, kept current as it resizes (window, rotation, sidebar). */
function useContentWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * Every page of the PDF with an overlay layer per page for fields. With `fit`, pages are as wide as
 * the space they have (at most `width`) times `zoom`, and the pages scroll sideways inside their
 * own box when zoomed in, so a phone can reach every part of a page without the whole page
 * scrolling sideways.
 */
export function PdfPages({ source, width = 640, overlay, fit = false, zoom = 1 }: { source: PdfSource; width?: number; overlay?: (pageNumber: number) => ReactNode; fit?: boolean; zoom?: number }) {
  const { doc, error } = usePdf(source);
  const box = useContentWidth();
  // 2 px less than the box so the page shadow does not itself cause a sideways scroll.
  const pageWidth = fit ? Math.max(120, Math.floor(Math.min(width, box.width - 2) * zoom)) : width;
  if (error) return <ErrorBanner error={error} />;
  return (
    <div className={fit ? 'pdf-scroll' : undefined} ref={box.ref} data-testid="pdf-scroll">
      {!doc || (fit && box.width === 0) ? (
        <Spinner label="Rendering PDF…" />
      ) : (
        <div className="pdf-pages">
          {Array.from({ length: doc.numPages }, (_, i) => (
            <PdfPage key={i} doc={doc} pageNumber={i + 1} width={pageWidth}>
              {overlay?.(i + 1)}
            </PdfPage>
          ))}
        </div>
      )}
    </div>
  );
}
