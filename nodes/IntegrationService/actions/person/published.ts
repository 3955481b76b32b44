import { personTagsField } from '../../../shared/catalogue/crmAccount';
import { personResource } from '../../../shared/catalogue/person';
import { getOperation } from '../generic/get';
import type { OperationModule } from '../node.type';
import { membersOperation, publishedDelete } from '../published/write';

/**
 * Person's published operations (crm-endpoints.md, issue 30): Get and Delete by ID, and Add Tags and
 * Remove Tags (POST {crm}/api/people/{id}/tags/apply and /delete with `tags`; output `{ id,
 * tagsAdded }` / `{ id, tagsRemoved }`).
 */

const tags = (operation: 'addTags' | 'removeTags', more: string, verb: string): OperationModule =>
	membersOperation(
		personResource,
		{
			operation,
			method: 'POST',
			more: ['tags', more],
			verb,
			output: operation === 'addTags' ? 'tagsAdded' : 'tagsRemoved',
		},
		personTagsField,
	);

export const publishedOperations: Record<string, OperationModule> = {
	addTags: tags('addTags', 'apply', 'add tags to'),
	delete: publishedDelete(personResource),
	get: getOperation(personResource),
	removeTags: tags('removeTags', 'delete', 'remove tags from'),
};
