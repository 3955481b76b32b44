import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactValuesProperty, toContactValues } from '../../helpers/contactValues';
import { toStringList, withoutEmpty } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { serviceRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		default: '',
		description: "The person's first (given) name",
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		default: '',
		description: "The person's last (family) name",
	},
	contactValuesProperty('emails'),
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		typeOptions: { multipleValues: true },
		default: [],
		placeholder: 'Add Tag',
		description: 'Labels to attach to the person',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['person'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<IDataObject[]> {
	const body = withoutEmpty({
		firstName: this.getNodeParameter('firstName', itemIndex, '') as string,
		lastName: this.getNodeParameter('lastName', itemIndex, '') as string,
	});
	const emails = toContactValues(this, itemIndex, 'Emails', this.getNodeParameter('emails', itemIndex, {}));
	if (emails.length) body.emails = emails;
	const tags = toStringList(this, itemIndex, 'Tags', this.getNodeParameter('tags', itemIndex, []));
	if (tags.length) body.tags = tags;

	const credentialId = this.getNodeParameter('credentialId', itemIndex, '') as string;
	const person = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'crm', path: ['people'], body, credentialId },
		policy,
	);
	return [person];
}
