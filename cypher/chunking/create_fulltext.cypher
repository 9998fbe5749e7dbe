// German full-text index over a flat strategy's unit texts (lexical and fusion variants).
CREATE FULLTEXT INDEX study_ft___NAME__ IF NOT EXISTS FOR (n:__LABEL__) ON EACH [n.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'german'}}
