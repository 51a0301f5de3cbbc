/** The job summary is HTML that GitHub renders as it is: gateway text must not become markup. */
import { expect, it } from 'vitest';
import { escapeHtml, renderSummary } from '../src/summary.js';

const hostile = '<img src=x onerror="alert(1)"> & <script>steal()</script>';

it('escapes gateway text everywhere it appears', () => {
  const html = renderSummary({
    operation: 'blend',
    inputs: [['state', hostile]],
    outputs: { status: hostile, response: JSON.stringify({ description: hostile }) },
    warnings: [hostile],
    links: [{ label: 'Video', url: `https://example.test/v.mp4?"><script>x()</script>` }],
  });
  expect(html).not.toMatch(/<(img|script)/);
  expect(html).toContain(escapeHtml(hostile));
  expect(html).toContain('<a href="https://example.test/v.mp4?&#34;&#62;&#60;script&#62;x()&#60;/script&#62;">');
});

it('links only http(s) addresses', () => {
  const html = renderSummary({
    operation: 'text-to-video',
    inputs: [],
    links: [{ label: 'Video', url: 'javascript:alert(1)' }],
  });
  expect(html).not.toContain('<a ');
  expect(html).toContain('Video: javascript:alert(1)');
});

it('reports a failure with its hint', () => {
  const html = renderSummary({
    operation: 'text-to-video',
    inputs: [],
    failure: { message: `text-to-video failed with HTTP 500: ${hostile}`, hint: 'Check before submitting again.' },
  });
  expect(html).toContain('mediagw: text-to-video failed');
  expect(html).toContain(`HTTP 500: ${escapeHtml(hostile)}`);
  expect(html).not.toMatch(/<(img|script)/);
});
