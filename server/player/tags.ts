/** The tag names MPD knows (src/tag/Names.cxx), and the other filter types of its legacy `TYPE VALUE` filters. */
const tagNames = [
  'Artist', 'ArtistSort', 'Album', 'AlbumSort', 'AlbumArtist', 'AlbumArtistSort', 'Title', 'TitleSort', 'Track',
  'Name', 'Genre', 'Mood', 'Date', 'OriginalDate', 'Composer', 'ComposerSort', 'Performer', 'Conductor', 'Work',
  'Movement', 'MovementNumber', 'ShowMovement', 'Ensemble', 'Location', 'Grouping', 'Comment', 'Disc',
  'DiscSubtitle', 'Label', 'MUSICBRAINZ_ARTISTID', 'MUSICBRAINZ_ALBUMID', 'MUSICBRAINZ_ALBUMARTISTID',
  'MUSICBRAINZ_TRACKID', 'MUSICBRAINZ_RELEASETRACKID', 'MUSICBRAINZ_WORKID', 'MUSICBRAINZ_RELEASEGROUPID',
];

const byLower = new Map(tagNames.map((t) => [t.toLowerCase(), t]));

/** The canonical tag name for a name in any case, or undefined. */
export const tagName = (name: string): string | undefined => byLower.get(name.toLowerCase());

const filterTypes = new Map([...byLower, ['any', 'any'], ['file', 'file'], ['base', 'base'], ['modified-since', 'modified-since']]);

/** A tag or `any`, `file`, `base`, `modified-since` (case-insensitive), canonical; or undefined. */
export const filterType = (name: string): string | undefined => filterTypes.get(name.toLowerCase());
