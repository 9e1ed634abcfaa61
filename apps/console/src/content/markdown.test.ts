import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

describe('article Markdown is rendered without script or script links', () => {
  it('shows raw HTML as text', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script> <img src=x onerror="alert(2)">');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('drops javascript:, vbscript: and data: links and images, keeps http(s)', () => {
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'java&#x09;script:alert(1)']) {
      const html = renderMarkdown(`[click](${bad}) ![pic](${bad})`);
      expect(html, bad).not.toMatch(/href="\s*(javascript|vbscript|data)/i);
      expect(html, bad).not.toMatch(/src="\s*(javascript|vbscript|data)/i);
      expect(html, bad).not.toContain('<a ');
    }
    const ok = renderMarkdown('[manual](https://mowerline.example/manual) ![lawn](/api/content/file/1?exp=1&sig=x)');
    expect(ok).toContain('<a href="https://mowerline.example/manual" target="_blank" rel="noopener noreferrer nofollow">manual</a>');
    expect(ok).toContain('<img src="/api/content/file/1?exp=1&amp;sig=x" alt="lawn">');
  });

  it('renders ordinary Markdown', () => {
    expect(renderMarkdown('## Blades\n\n- **sharp**\n- clean')).toBe('<h2>Blades</h2>\n<ul>\n<li><strong>sharp</strong></li>\n<li>clean</li>\n</ul>\n');
  });
});
