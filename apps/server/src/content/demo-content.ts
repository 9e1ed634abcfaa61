import { Readable } from 'node:stream';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import type { ContentType, ContentWriteBody } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { createContentUrlSigner, storeContentFile } from './content-files.ts';
import { createContent, setContentState, type Author } from './content.service.ts';
import { contentFiles, contentItems } from './content.sql.ts';

interface DemoItem {
  type: ContentType;
  en: [title: string, body: string];
  zh: [title: string, body: string];
  colour: string;
  videoUrl?: string;
}

/** What a mower company publishes in its app: care articles, picture posts, tutorial videos. */
const items: DemoItem[] = [
  {
    type: 'text',
    en: ['Winter storage for your mower', '## Before the frost\n\n1. Charge the battery to about 50 %.\n2. Clean the blades and the underside.\n3. Store it indoors, above 0 °C.\n\nSee the [manual](https://mowerline.example/manual) for details.'],
    zh: ['割草机冬季存放指南', '## 霜冻之前\n\n1. 将电池充电至约 50%。\n2. 清洁刀片和底盘。\n3. 存放在 0 °C 以上的室内。\n\n详见[说明书](https://mowerline.example/manual)。'],
    colour: '#165DFF',
  },
  {
    type: 'text',
    en: ['When to replace the blades', 'Blunt blades tear the grass. Replace them **every 2–3 months** in the mowing season, always as a set.'],
    zh: ['何时更换刀片', '钝的刀片会撕裂草叶。割草季节**每 2–3 个月**更换一次，并且整套更换。'],
    colour: '#0FC6C2',
  },
  {
    type: 'text',
    en: ['Setting up a boundary-free zone', 'Walk the edge of the zone with the app open; the mower records the path with RTK positioning.'],
    zh: ['设置无边界线区域', '打开应用沿区域边缘行走，割草机会通过 RTK 定位记录路径。'],
    colour: '#722ED1',
  },
  {
    type: 'image',
    en: ['Stripes: the summer look', 'Mowing in alternating directions leaves the classic stripes.'],
    zh: ['条纹草坪：夏日造型', '交替方向割草，留下经典条纹。'],
    colour: '#00B42A',
  },
  {
    type: 'image',
    en: ['The new charging station', 'Smaller, weatherproof, and with a light ring that shows the charge.'],
    zh: ['全新充电站', '更小巧、防风雨，光环显示充电状态。'],
    colour: '#FF7D00',
  },
  {
    type: 'video',
    en: ['Unboxing and first start', 'From the box to the first cut in ten minutes.'],
    zh: ['开箱与首次启动', '十分钟内从开箱到第一次割草。'],
    colour: '#F53F3F',
    videoUrl: 'https://videos.mowerline.example/unboxing.mp4',
  },
  {
    type: 'video',
    en: ['Cleaning the cutting deck', 'A two-minute routine that keeps the cut clean.'],
    zh: ['清洁割草盘', '两分钟的日常保养，让切割始终干净。'],
    colour: '#3491FA',
    videoUrl: 'https://videos.mowerline.example/cleaning.mp4',
  },
];

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A cover drawn as SVG (the title on a coloured field with a lawn line) and rendered to PNG by sharp. */
function coverPng(title: string, colour: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360">
    <rect width="640" height="360" fill="${colour}"/>
    <path d="M0 300 Q160 260 320 300 T640 300 V360 H0Z" fill="#ffffff" fill-opacity="0.25"/>
    <text x="40" y="190" font-family="sans-serif" font-size="36" font-weight="bold" fill="#ffffff">${escapeXml(title)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Publishes the demo's content once (an empty content table), through the same services staff use:
 * covers are uploaded like any upload (sniffed, re-encoded), items created as drafts and published.
 */
export async function seedDemoContent(db: Db, dataDir: string, jwtSecret: string, author: Author): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(contentItems);
  if ((existing?.n ?? 0) > 0) return 0;
  const urls = createContentUrlSigner({ jwtSecret });
  for (const item of items) {
    const stored = await storeContentFile(dataDir, Readable.from(await coverPng(item.en[0], item.colour)), 'image');
    const [file] = await db
      .insert(contentFiles)
      .values({ kind: 'image', mime: stored.mime, filePath: stored.relative, size: stored.size, sha256: stored.sha256, width: stored.width, height: stored.height, createdBy: author.id })
      .returning({ id: contentFiles.id });
    const body: ContentWriteBody = {
      type: item.type,
      title: { 'zh-CN': item.zh[0], 'en-US': item.en[0] },
      body: { 'zh-CN': item.zh[1], 'en-US': item.en[1] },
      coverFileId: file!.id,
      mediaFileId: item.type === 'image' ? file!.id : null,
      mediaUrl: item.videoUrl ?? null,
      models: [],
    };
    const created = await createContent(db, urls, body, author);
    await setContentState(db, urls, created.id, 'published');
  }
  return items.length;
}
