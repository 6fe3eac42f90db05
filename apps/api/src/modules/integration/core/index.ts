/**
 * The integration core: what other modules may use of the API keys and webhook endpoints (the staff
 * access administration retires what a removed member made). Other modules import this index only.
 */
export { apiKeyAnswer, creatorColumns, webhookEndpointAnswer } from './answers';
export { CREATOR_REMOVED_REASON, listMadeBy, retireMadeBy, type MadeBy } from './made-by';
