// Albums with tracks, photos and teasers (api-service.md 4.3; decisions.md "Members and albums").
import { Type } from '@sinclair/typebox';
import { DateString, HttpUrl, IdParam, Nullable } from './common.ts';

const Title = Type.String({ minLength: 1, maxLength: 200, description: 'stored trimmed, Unicode NFC' });
/** `M:SS`, `MM:SS` or `H:MM:SS`. */
const Duration = Type.String({ pattern: '^([0-9]{1,2}:)?[0-5]?[0-9]:[0-5][0-9]$', description: 'M:SS or H:MM:SS' });
const Credit = Nullable(Type.String({ maxLength: 500 }));
const SortOrder = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const CoverImage = Type.Object({ originalUrl: Type.String(), mediumUrl: Type.String(), thumbUrl: Type.String() });

export const Track = Type.Object(
  {
    id: Type.Integer(),
    trackNumber: Type.Integer({ minimum: 1 }),
    title: Type.String(),
    isTitleTrack: Type.Boolean(),
    duration: Nullable(Type.String()),
    lyricist: Nullable(Type.String()),
    composer: Nullable(Type.String()),
    arranger: Nullable(Type.String()),
    lyrics: Nullable(Type.String()),
    musicVideoUrl: Nullable(Type.String()),
  },
  { $id: 'Track' },
);

export const Album = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    albumType: Type.String(),
    releaseDate: Nullable(DateString),
    cover: Nullable(CoverImage),
    description: Nullable(Type.String()),
    tracks: Type.Array(Track, { description: 'by track number' }),
  },
  { $id: 'Album' },
);

export const AlbumList = Type.Array(Album, { description: 'newest release first (no release date last), then newest id' });

/** One track of the `tracks` array; `id` is accepted (clients echo GET objects) and ignored: PUT replaces all tracks. */
export const TrackInput = Type.Object(
  {
    id: Type.Optional(Type.Integer()),
    trackNumber: Type.Integer({ minimum: 1, maximum: 999 }),
    title: Title,
    isTitleTrack: Type.Optional(Type.Boolean()),
    duration: Type.Optional(Nullable(Duration)),
    lyricist: Type.Optional(Credit),
    composer: Type.Optional(Credit),
    arranger: Type.Optional(Credit),
    lyrics: Type.Optional(Nullable(Type.String({ maxLength: 20_000 }))),
    musicVideoUrl: Type.Optional(Nullable(HttpUrl)),
  },
  { additionalProperties: false },
);

const Tracks = Type.Array(TrackInput, { maxItems: 100, description: 'track numbers and titles unique within the album' });
const albumFields = {
  albumType: Type.Optional(Type.String({ maxLength: 50, description: 'free text (정규, 미니, 싱글, …); empty when not sent on create' })),
  releaseDate: Type.Optional(Nullable(DateString)),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  tracks: Type.Optional(Tracks),
};

/** POST: only the title is required. */
export const AlbumCreatePayload = Type.Object({ title: Title, ...albumFields }, { additionalProperties: false, $id: 'AlbumCreatePayload' });

/** PUT: only the fields sent change; `tracks`, when sent, replaces every track. */
export const AlbumUpdatePayload = Type.Object({ title: Type.Optional(Title), ...albumFields }, { additionalProperties: false, $id: 'AlbumUpdatePayload' });

export const TrackDetail = Type.Object({
  album: Type.Object({ id: Type.Integer(), title: Type.String(), cover: Nullable(CoverImage) }),
  track: Track,
  prevTrack: Nullable(Type.Object({ title: Type.String() })),
  nextTrack: Nullable(Type.Object({ title: Type.String() })),
});

export const Photo = Type.Object(
  {
    id: Type.Integer(),
    concept: Nullable(Type.String()),
    originalUrl: Type.String(),
    mediumUrl: Type.String(),
    thumbUrl: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    memberIds: Type.Array(Type.Integer()),
    sortOrder: Type.Integer(),
  },
  { $id: 'AlbumPhoto' },
);

export const PhotoList = Type.Array(Photo, { description: 'by sortOrder, then upload order' });
export const PhotoUploadResponse = Type.Object({ photos: Type.Array(Photo) });

const photoFields = {
  concept: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  memberIds: Type.Optional(Type.Array(IdParam, { maxItems: 50, uniqueItems: true, description: 'ids of existing members' })),
  sortOrder: Type.Optional(SortOrder),
};

/** Multipart `payload` of a photo upload, applied to every file; without sortOrder the files follow the album's last photo. */
export const PhotoUploadPayload = Type.Object(photoFields, { additionalProperties: false, $id: 'PhotoUploadPayload' });

/** JSON body of PUT …/photos/:photoId: only the fields sent change. */
export const PhotoUpdatePayload = Type.Object(photoFields, { additionalProperties: false });

export const Teaser = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
    originalUrl: Type.String(),
    thumbUrl: Nullable(Type.String({ description: 'thumb variant of an image; null for a video' })),
    sortOrder: Type.Integer(),
  },
  { $id: 'AlbumTeaser' },
);

export const TeaserList = Type.Array(Teaser, { description: 'by sortOrder, then upload order' });

/** Multipart `payload` of a teaser upload (optional); without sortOrder the teaser follows the album's last one. */
export const TeaserUploadPayload = Type.Object({ sortOrder: Type.Optional(SortOrder) }, { additionalProperties: false, $id: 'TeaserUploadPayload' });
