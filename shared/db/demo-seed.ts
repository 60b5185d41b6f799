// `npm run seed:demo`: loads the demo data set (demo-data.ts) into an empty database — members,
// albums with generated covers, a year of schedules and school events with generated posters — then
// rebuilds the search index. Refuses when members, albums or schedules already hold rows.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { storeVariants, variantKeys } from '../storage/image-files.ts';
import type { ProcessedImage } from '../../workers/image-pool.ts';
import { loadConfigOrReport, type Config } from '../runtime/config.ts';
import { createLogger } from '../runtime/logger.ts';
import { linkPlatformRecord, POST_PLATFORM, VIDEO_PLATFORM } from '../schedules/collected.ts';
import { recordScheduleChange } from '../schedules/schedule-changes.ts';
import { insertEventRow, insertMembers, insertScheduleRow, storePosterFiles } from '../schedules/schedule-writes.ts';
import { rebuildSearchIndex } from '../search/sync.ts';
import type { Services } from '../services.ts';
import type { Queryable, Tx } from './database.ts';
import { runningEmbeddedDatabase } from './embedded-running.ts';
import { demoDataSet, type DemoArtwork, type DemoDataSet, type DemoSchedule } from './demo-data.ts';
import { insertImage, insertScheduleImages } from './repositories/images.ts';
import { upsertVenue } from './repositories/venues.ts';

export interface SeedCounts {
  members: number;
  albums: number;
  tracks: number;
  schedules: number;
  events: number;
  venues: number;
  images: number;
  /** Documents in the rebuilt search index; null when the rebuild failed (sync-search repairs it). */
  indexed: number | null;
}

export type SeedOutcome = { seeded: true; year: number; counts: SeedCounts } | { seeded: false; reason: string };

export interface SeedOptions {
  /** Poster width in pixels (height 4:3 of it); album covers are square. Default 1200. */
  imageWidth?: number;
  /** Year of the schedules; default the current year in Asia/Seoul by the service's clock. */
  year?: number;
}

interface ContentCounts {
  members: number;
  albums: number;
  schedules: number;
}

const contentCounts = (db: Queryable) =>
  db.one<ContentCounts>('SELECT (SELECT count(*) FROM members)::int AS members, (SELECT count(*) FROM albums)::int AS albums, (SELECT count(*) FROM schedules)::int AS schedules');

const isEmpty = (counts: ContentCounts) => counts.members === 0 && counts.albums === 0 && counts.schedules === 0;

/** True when the database has no members, albums and schedules: the demo seed would run. */
export async function isDatabaseEmpty(db: Queryable): Promise<boolean> {
  return isEmpty(await contentCounts(db));
}

const notEmptyReason = (counts: ContentCounts) =>
  `데이터베이스가 비어 있지 않습니다 (멤버 ${counts.members}, 앨범 ${counts.albums}, 일정 ${counts.schedules}). 데모 데이터는 빈 데이터베이스에만 넣습니다 / the database is not empty`;

/** Korea keeps no daylight saving time: UTC+9 all year. */
const seoulYear = (ms: number) => new Date(ms + 9 * 3_600_000).getUTCFullYear();

// ---- generated artwork -------------------------------------------------------------------------

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Greedy wrap on spaces for a line of about `maxChars` Hangul-width characters. */
function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A gradient card with a kicker, a wrapped title and small lines; fonts stay generic (sans-serif). */
function artworkSvg(art: DemoArtwork, width: number, height: number, variant: number): string {
  const u = width / 100;
  const titleSize = Math.round(u * 7.5);
  const titleLines = wrap(art.title, Math.max(4, Math.floor(84 / 7.5)));
  const smallLines = art.lines.flatMap((line) => wrap(line, Math.floor(84 / 4.2)));
  const titleTop = height * 0.42 - ((titleLines.length - 1) * titleSize * 1.25) / 2;
  const circles = [0, 1, 2].map((i) => {
    const cx = ((variant * 37 + i * 41) % 100) * u;
    const cy = ((variant * 53 + i * 29) % 100) * (height / 100);
    return `<circle cx="${cx}" cy="${cy}" r="${(18 + i * 9) * u}" fill="#ffffff" fill-opacity="${0.06 + i * 0.03}"/>`;
  });
  const text = (x: number, y: number, size: number, content: string, extra = '') =>
    `<text x="${x}" y="${y}" font-family="sans-serif" font-size="${size}" fill="#ffffff" text-anchor="middle" ${extra}>${escapeXml(content)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${art.colors[0]}"/><stop offset="1" stop-color="${art.colors[1]}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
${circles.join('\n')}
<rect x="${6 * u}" y="${6 * u}" width="${88 * u}" height="${height - 12 * u}" fill="none" stroke="#ffffff" stroke-opacity="0.5" stroke-width="${0.4 * u}"/>
${text(width / 2, height * 0.16, Math.round(u * 4), art.kicker, `letter-spacing="${u * 0.6}" font-weight="bold"`)}
${titleLines.map((line, i) => text(width / 2, titleTop + i * titleSize * 1.25, titleSize, line, 'font-weight="bold"')).join('\n')}
${smallLines.map((line, i) => text(width / 2, height * 0.78 + i * u * 6, Math.round(u * 4.2), line)).join('\n')}
</svg>`;
}

const renderArtwork = async (art: DemoArtwork, width: number, height: number, variant: number): Promise<Uint8Array> =>
  new Uint8Array(await sharp(Buffer.from(artworkSvg(art, width, height, variant))).png().toBuffer());

interface Artwork {
  /** Which album or schedule of the data set it belongs to. */
  owner: number;
  image: ProcessedImage;
}

/** Renders and processes every cover and poster before the transaction, in parallel through the pool. */
async function prepareArtwork(s: Services, data: DemoDataSet, width: number): Promise<{ covers: Artwork[]; posters: Artwork[] }> {
  const jobs: Array<{ kind: 'cover' | 'poster'; owner: number; art: DemoArtwork; height: number }> = [];
  data.albums.forEach((album, owner) => jobs.push({ kind: 'cover', owner, art: album.cover, height: width }));
  data.schedules.forEach((schedule, owner) => schedule.event?.posters.forEach((art) => jobs.push({ kind: 'poster', owner, art, height: Math.round((width * 4) / 3) })));
  const images = await Promise.all(jobs.map(async (job, index) => s.images.process(await renderArtwork(job.art, width, job.height, index))));
  const made = jobs.map((job, index) => ({ kind: job.kind, owner: job.owner, image: images[index]! }));
  return { covers: made.filter((a) => a.kind === 'cover'), posters: made.filter((a) => a.kind === 'poster') };
}

// ---- the seed ------------------------------------------------------------------------------------

/**
 * One demo schedule, written with the steps every schedule write uses (shared/schedules/): its row,
 * members, platform record, an event's venue, posters and event row, and the change record the
 * indexer, the caches and the live calendar follow. All of them inside the seed's one transaction,
 * so the seed is all or nothing.
 */
async function insertSchedule(tx: Tx, s: Services, schedule: DemoSchedule, memberIds: Map<string, number>, posters: ProcessedImage[], written: string[]): Promise<{ imageCount: number }> {
  const id = await insertScheduleRow(tx, {
    categoryId: schedule.categoryId,
    title: schedule.title,
    date: schedule.date,
    time: schedule.time ?? undefined,
    description: schedule.description ?? undefined,
    source: schedule.source ?? undefined,
  });
  await insertMembers(tx, id, schedule.members.map((name) => memberIds.get(name)!));
  if (schedule.video) {
    const { videoId, channelId, channelName, videoType } = schedule.video;
    await linkPlatformRecord(tx, VIDEO_PLATFORM, id, { video_id: videoId, channel_id: channelId, channel_name: channelName, video_type: videoType });
  }
  if (schedule.post) {
    const { postId, username, displayName } = schedule.post;
    await linkPlatformRecord(tx, POST_PLATFORM, id, { post_id: postId, username, display_name: displayName });
  }
  if (schedule.event) {
    // As the event route does: venue upsert, posters as event/<id>/poster/NN, then the event row.
    const venueId = await upsertVenue(tx, schedule.event.venue);
    const uploads = posters.map((image) => ({ fileName: `poster.${image.format}`, image }));
    const stored = await storePosterFiles(s, id, uploads, (index, ext) => `${String(index + 1).padStart(2, '0')}.${ext}`, written);
    await insertScheduleImages(tx, id, stored, 1);
    await insertEventRow(tx, id, { subtype: 'university', schoolName: schedule.event.schoolName, venueId, postUrls: schedule.event.postUrls });
  }
  // Like every schedule write: the indexer and every edge's cache follow the outbox. The members'
  // birthdays are new too, and they are listed in every year's months: every cached month goes.
  await recordScheduleChange(tx, { scheduleId: id, action: 'create', dates: [schedule.date], everyMonth: true });
  return { imageCount: posters.length };
}

/**
 * Loads the demo data set when the database has no members, albums and schedules; otherwise
 * returns `{seeded: false, reason}` and changes nothing. Rows go in one transaction; the files it
 * stored are deleted again if that transaction does not commit.
 */
export async function seedDemo(s: Services, options: SeedOptions = {}): Promise<SeedOutcome> {
  const before = await contentCounts(s.db);
  if (!isEmpty(before)) return { seeded: false, reason: notEmptyReason(before) };

  const year = options.year ?? seoulYear(s.clock.now());
  const data = demoDataSet(year);
  const artwork = await prepareArtwork(s, data, options.imageWidth ?? 1200);
  const postersOf = (owner: number) => artwork.posters.filter((a) => a.owner === owner).map((a) => a.image);

  const written: string[] = [];
  let outcome: SeedOutcome;
  try {
    outcome = await s.db.tx('demo-seed', async (tx) => {
      // Writers wait until this commits; a second seed running at the same time then sees the rows and refuses.
      await tx.none('LOCK TABLE members, albums, schedules IN SHARE ROW EXCLUSIVE MODE');
      const now = await contentCounts(tx);
      if (!isEmpty(now)) return { seeded: false, reason: notEmptyReason(now) } as const;

      const memberIds = new Map<string, number>();
      for (const [index, member] of data.members.entries()) {
        const { id } = await tx.one<{ id: number }>(
          'INSERT INTO members (name, name_en, birth_date, position, instagram, sort_order, nicknames) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
          [member.name, member.nameEn, member.birthDate, member.position, member.instagram, index + 1, member.nicknames],
        );
        memberIds.set(member.name, id);
      }

      let tracks = 0;
      let images = 0;
      const stamp = s.clock.now(); // covers as the album route names them: album/<id>/cover/<ms>.<format>
      for (const [index, album] of data.albums.entries()) {
        const { id } = await tx.one<{ id: number }>(
          'INSERT INTO albums (title, album_type, release_date, description) VALUES ($1, $2, $3, $4) RETURNING id',
          [album.title, album.albumType, album.releaseDate, album.description],
        );
        for (const cover of artwork.covers.filter((a) => a.owner === index)) {
          const stored = await storeVariants(s.storage, cover.image, variantKeys(`album/${id}/cover/${stamp}.${cover.image.format}`), written);
          await tx.none('UPDATE albums SET cover_image_id = $2 WHERE id = $1', [id, await insertImage(tx, stored)]);
          images++;
        }
        for (const [position, track] of album.tracks.entries()) {
          await tx.none(
            'INSERT INTO tracks (album_id, track_number, title, is_title_track, duration, lyricist, composer, arranger) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            [id, position + 1, track.title, track.isTitleTrack, track.duration, track.lyricist || null, track.composer, track.arranger],
          );
          tracks++;
        }
      }

      for (const [index, schedule] of data.schedules.entries()) {
        images += (await insertSchedule(tx, s, schedule, memberIds, postersOf(index), written)).imageCount;
      }
      const { venues } = await tx.one<{ venues: number }>('SELECT count(*)::int AS venues FROM venues');
      const counts: SeedCounts = {
        members: data.members.length,
        albums: data.albums.length,
        tracks,
        schedules: data.schedules.length,
        events: data.schedules.filter((schedule) => schedule.event).length,
        venues,
        images,
        indexed: null,
      };
      return { seeded: true, year, counts } as const;
    });
  } catch (error) {
    await s.storage.delete(written).catch((e: unknown) => s.logger.error({ err: e }, 'could not remove the files of a failed demo seed'));
    throw error;
  }
  if (!outcome.seeded) return outcome;

  s.monthlyCache.invalidateAll();
  try {
    outcome.counts.indexed = await rebuildSearchIndex(s.db, s.search);
  } catch (error) {
    // The rows are committed; the outbox entries reach the indexer, and sync-search rebuilds in full.
    s.logger.error({ err: error }, 'demo seed: search index rebuild failed');
  }
  s.logger.info({ year, counts: outcome.counts }, 'demo data seeded');
  return outcome;
}

export function describeOutcome(outcome: SeedOutcome): string {
  if (!outcome.seeded) return `데모 데이터를 넣지 않았습니다 / demo data not seeded: ${outcome.reason}`;
  const c = outcome.counts;
  return (
    `데모 데이터를 넣었습니다 / demo data seeded (${outcome.year}): 멤버 ${c.members}, 앨범 ${c.albums} (트랙 ${c.tracks}), ` +
    `일정 ${c.schedules} (행사 ${c.events}, 장소 ${c.venues}), 이미지 ${c.images}, 검색 색인 ${c.indexed ?? '실패 / failed'}`
  );
}

// ---- command line --------------------------------------------------------------------------------

async function main(): Promise<number> {
  const config = loadConfigOrReport();
  if (!config) return 1;
  // A running `npm start` owns DATA_DIR/pg: connect to its PostgreSQL instead of starting a second
  // one there (the start-up would stop it as an orphan). Its relay, cache invalidation and indexer
  // then pick the seed up from the outbox.
  const server = config.databaseUrl ? null : await runningEmbeddedDatabase(join(config.dataDir, 'pg'));
  if (server) {
    process.stdout.write(`실행 중인 서버의 내장 데이터베이스(postgres ${server.pid})에 넣습니다 / seeding the running server's embedded database\n`);
  }
  // Service logs only when LOG_LEVEL asks for them: the command prints its own one line.
  const logger = createLogger(process.env.LOG_LEVEL?.trim() ? config.logLevel : 'warn');
  // Loaded here, not at the top: importing isDatabaseEmpty must not pull in the whole service.
  const { startService } = await import('../../app/service.ts');
  // No role: the shared services only (database, migrations, storage, pools, search index).
  // A batch job, not a request: the request timeouts for an unreachable database do not apply.
  const running = await startService({ ...config, ...(server ? { databaseUrl: server.url } : {}), roles: new Set(), database: { connectTimeoutMs: 60_000, queryTimeoutMs: 3_600_000 } }, { logger });
  try {
    process.stdout.write(`${describeOutcome(await seedDemo(running.services))}\n`);
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'demo seed failed');
    process.stderr.write(`데모 데이터를 넣지 못했습니다 / demo seed failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await running.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`demo seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
