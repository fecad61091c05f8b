import { publicBaseUrl, type Config } from '../config.js';
import { signFileUrl } from './signed-url.js';

/** What a link to a stored file needs: the public address and TTL in the config, and the signing secret. */
export interface FileLinkDeps {
  config: Config;
  fileUrlSecret: string;
}

/** A time-limited link to a stored file (the link is the credential), or null when there is no file. */
export function signedFileUrl(deps: FileLinkDeps, key: string | null, filename?: string): string | null {
  if (!key) return null;
  return signFileUrl({
    baseUrl: publicBaseUrl(deps.config),
    key,
    expiresAt: new Date(Date.now() + deps.config.SIGNED_URL_TTL_SECONDS * 1000),
    secret: deps.fileUrlSecret,
    filename,
  });
}
