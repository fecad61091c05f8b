import { z } from 'zod';

/** ISO 8601 UTC timestamp as the API returns it. */
export const isoDateTime = z.iso.datetime({ offset: true });
