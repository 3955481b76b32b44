import { publishedUpdate } from '../published/write';
import { catalogueResource } from '../generic/entity';

/**
 * PUT {los}/api/borrowers/{id} (spec 4.6): the changed borrower. Its fields are the catalogue's
 * (nodes/shared/catalogue/losRecords.ts), shared with the published Create.
 */
export const { description, execute } = publishedUpdate(catalogueResource('borrower'));
