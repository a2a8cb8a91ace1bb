/** A problem with a study database (missing, of another study, unreadable query, bad rows). An input error. */
export class StudyError extends Error {
  readonly isInputError = true;
  constructor(message: string) {
    super(message);
    this.name = "StudyError";
  }
}
