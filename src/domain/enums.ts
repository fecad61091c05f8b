/**
 * Enumerations of the API. Numbers the spec gives are kept; the rest are DESIGN.md section 4.
 * Each enum is a name -> number map; `nameOf` gives the text the API returns beside the number.
 */

export const TaskStatus = {
  Recognizing: 1,
  RecognitionFailed: 2,
  ToReview: 3,
  InReview: 4,
  ExportCompleted: 5,
  Processed: 6,
  Split: 7,
  Deleting: 19,
  Deleted: 20,
  QueuedForPreProcessing: 30,
  PreProcessingInProgress: 31,
  PreProcessingFailed: 32,
  PreProcessingDownloadFailed: 33,
  PreProcessingSuccessful: 34,
  PreProcessingGetPagesFailed: 35,
  ValidationErrorInvalidDimensions: 36,
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

/** Statuses the pipeline moves a task no further from: its processing (pre-processing and recognition) has ended. */
export const PROCESSING_ENDED_STATUSES: ReadonlySet<number> = new Set<number>([
  TaskStatus.ToReview,
  TaskStatus.RecognitionFailed,
  TaskStatus.Split,
  TaskStatus.PreProcessingFailed,
  TaskStatus.PreProcessingDownloadFailed,
  TaskStatus.PreProcessingGetPagesFailed,
  TaskStatus.ValidationErrorInvalidDimensions,
]);

export const IntegrationStatus = { Never: 1, Queued: 2, Successful: 3, Failed: 4 } as const;
export type IntegrationStatus = (typeof IntegrationStatus)[keyof typeof IntegrationStatus];

export const TaskType = { Document: 1, Transcript: 2, Anonymization: 3, Labelling: 4 } as const;
export type TaskType = (typeof TaskType)[keyof typeof TaskType];

export const WorkspaceType = { Standard: 1, Template: 2 } as const;
export type WorkspaceType = (typeof WorkspaceType)[keyof typeof WorkspaceType];

export const TemplateType = {
  InvoicesUniversal: 1,
  InvoicesPortugal: 2,
  Receipts: 3,
  Transcripts: 4,
  DocumentAnonymization: 5,
  ImageAnonymization: 6,
  IdentificationDocument: 7,
  Layout: 8,
  Custom: 9,
  Template: 10,
  Labelling: 11,
} as const;
export type TemplateType = (typeof TemplateType)[keyof typeof TemplateType];

export const SpeakerSource = { Detected: 1, Task: 2, Workspace: 3 } as const;
export type SpeakerSource = (typeof SpeakerSource)[keyof typeof SpeakerSource];

export const TaskAssignmentOrderType = { Sequential: 1, Parallel: 2, AnyOne: 3 } as const;
export type TaskAssignmentOrderType = (typeof TaskAssignmentOrderType)[keyof typeof TaskAssignmentOrderType];

/** TaskAssignment.reviewState values. */
export const ReviewState = { Pending: 0, Reviewed: 1 } as const;
export type ReviewState = (typeof ReviewState)[keyof typeof ReviewState];

export const Roles = ['Administrator', 'Manager', 'Creator', 'Reviewer', 'Viewer'] as const;
export type RoleName = (typeof Roles)[number];
/** Roles allowed to review tasks. */
export const ReviewRoles: ReadonlySet<string> = new Set<RoleName>(['Administrator', 'Manager', 'Reviewer']);

/** User.status: Invited (no password yet, cannot sign in), Active, Disabled (cannot sign in). */
export const UserStatus = { Invited: 'Invited', Active: 'Active', Disabled: 'Disabled' } as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

export type NumericEnum = Readonly<Record<string, number>>;

export function nameOf(enumeration: NumericEnum, value: number): string | undefined {
  for (const [name, v] of Object.entries(enumeration)) if (v === value) return name;
  return undefined;
}

export function isEnumValue(enumeration: NumericEnum, value: number): boolean {
  return Object.values(enumeration).includes(value);
}

/** What each template type of workspace is: its task type and workspace type. */
export function workspaceKindOf(templateType: TemplateType): { taskType: TaskType; workspaceType: WorkspaceType } {
  switch (templateType) {
    case TemplateType.Transcripts:
      return { taskType: TaskType.Transcript, workspaceType: WorkspaceType.Standard };
    case TemplateType.DocumentAnonymization:
    case TemplateType.ImageAnonymization:
      return { taskType: TaskType.Anonymization, workspaceType: WorkspaceType.Standard };
    case TemplateType.Labelling:
      return { taskType: TaskType.Labelling, workspaceType: WorkspaceType.Standard };
    case TemplateType.Template:
      return { taskType: TaskType.Document, workspaceType: WorkspaceType.Template };
    default:
      return { taskType: TaskType.Document, workspaceType: WorkspaceType.Standard };
  }
}
