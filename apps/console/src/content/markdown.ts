import MarkdownIt from 'markdown-it';

/**
 * Staff write articles in Markdown; the preview renders it. Raw HTML is off (a `<script>` or an
 * `<img onerror>` stays text), and a link or image is kept only when it points at http(s), mailto
 * or a relative address, so `javascript:`, `vbscript:` and `data:` links never become clickable.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
const SAFE_URL = /^(https?:|mailto:|\/|#|\.{0,2}\/)/i;
md.validateLink = (url: string) => SAFE_URL.test(url.trim());

// Links open outside the console and tell the target nothing about it.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('target', '_blank');
  tokens[idx]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}
