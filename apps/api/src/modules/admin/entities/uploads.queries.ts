// The claim of an upload is shared with the desk's profile (platform/claimed-uploads.ts).
export { claimUpload, type ClaimedUpload, type Uploader } from '../../../platform/claimed-uploads';
