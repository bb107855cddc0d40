"""What a user's work is kept as between launches, in files of its own: session files
(``session_file``) and each document's eval questions (``document_questions``)."""
