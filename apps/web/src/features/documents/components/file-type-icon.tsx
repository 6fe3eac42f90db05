import { IconFile, IconFileTypeDocx, IconFileTypePdf, IconFileZip, IconPhoto } from '@tabler/icons-react';
import { fileExtension } from '../../../ui/file-preview';

export type FileTypeKind = 'image' | 'pdf' | 'docx' | 'zip' | 'other';

/** SPEC A2: image for png/jpg/jpeg, pdf, docx, zip, and a generic icon for the rest. */
export function fileTypeKind(fileName: string): FileTypeKind {
  const ext = fileExtension(fileName);
  if (ext === 'png' || ext === 'jpg' || ext === 'jpeg') return 'image';
  if (ext === 'pdf' || ext === 'docx' || ext === 'zip') return ext;
  return 'other';
}

const ICONS = {
  image: IconPhoto,
  pdf: IconFileTypePdf,
  docx: IconFileTypeDocx,
  zip: IconFileZip,
  other: IconFile,
};

export function FileTypeIcon({ fileName }: { fileName: string }) {
  const kind = fileTypeKind(fileName);
  const Icon = ICONS[kind];
  return <Icon size={22} aria-hidden data-kind={kind} style={{ flex: 'none' }} />;
}
