import * as authorizationLink from './authorizationLink';
import * as borrower from './borrower';
import * as credential from './credential';
import * as document from './document';
import type { OperationModule } from './operation.types';
import * as person from './person';
import * as webhook from './webhook';

/** resource → operation → module; the router looks operations up here. */
export const operations: Record<string, Record<string, OperationModule>> = {
	person: person.operations,
	authorizationLink: authorizationLink.operations,
	credential: credential.operations,
	borrower: borrower.operations,
	document: document.operations,
	webhook: webhook.operations,
};

/** Every resource's operation selector and fields, in the order the node shows them. */
export const resourceProperties = [
	...person.description,
	...authorizationLink.description,
	...credential.description,
	...borrower.description,
	...document.description,
	...webhook.description,
];
