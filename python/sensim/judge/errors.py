"""sensim.judge.errors: the judge's one exception type.

Every problem with the user's data (a missing label file, a box outside
the image, a class id out of range, an image that does not decode, an
empty dataset, an output that would overwrite something) raises
JudgeDataError with a message that names the file at fault.
"""


class JudgeDataError(ValueError):
    """Bad input to the perception judge; the message names the file."""
