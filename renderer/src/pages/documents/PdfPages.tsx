import { useEffect, useRef, useState, type ReactNode } from 'react';
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { Spinner, ErrorBanner } from '../../ui/components';
import { fetchPdf } from './docs-api';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Loads a PDF from the API once per path. */
export function usePdf(path: string) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setDoc(null);
    setError(null);
    fetchPdf(path)
      .then((data) => getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise)
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
  }, [path]);
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
      <canvas ref={canvas} style={{ width, height }} aria-label={`Page ${pageNumber}`} />
      <div className="pdf-overlay">{children}</div>
    </div>
  );
}

/** Every page of the PDF at `width` px, with an overlay layer per page for fields. */
export function PdfPages({ path, width = 640, overlay }: { path: string; width?: number; overlay?: (pageNumber: number) => ReactNode }) {
  const { doc, error } = usePdf(path);
  if (error) return <ErrorBanner error={error} />;
  if (!doc) return <Spinner label="Rendering PDF…" />;
  return (
    <div className="pdf-pages">
      {Array.from({ length: doc.numPages }, (_, i) => (
        <PdfPage key={i} doc={doc} pageNumber={i + 1} width={width}>
          {overlay?.(i + 1)}
        </PdfPage>
      ))}
    </div>
  );
}
