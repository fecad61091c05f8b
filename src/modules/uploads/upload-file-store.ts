import { FileStore } from '@tus/file-store';
import type { Db } from '../../db/prisma.js';
import { deleteUploadAcrossTenants } from './uploads.repository.js';

/**
 * The TUS file store, keeping our Upload rows in step with it: when an upload is removed (TUS
 * termination, DELETE /files/<id>) its row goes too, before the client hears 204, so task
 * creation and the sweeper never see a row whose file is gone. The row goes after the file: if
 * deleting the row fails, task creation still refuses the upload because its file is missing.
 */
export class UploadFileStore extends FileStore {
  constructor(
    options: ConstructorParameters<typeof FileStore>[0],
    private readonly db: Db,
  ) {
    super(options);
  }

  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await deleteUploadAcrossTenants(this.db, id);
  }
}
