import { publishedUpdate } from '../published/write';
import { catalogueResource } from '../generic/entity';

/**
 * PUT {los}/api/borrowers/{id} (spec 4.6): the changed borrower. Its fields are the catalogue's
 * (nodes/shared/catalogue/losRecords.ts): spec 2.4's, bio included; Create sends its page's.
 */
export const { description, execute } = publishedUpdate(catalogueResource('borrower'));
