-- Each person's and each group's chosen language (SPEC section 24): NULL until chosen with /t idioma (a person's
-- then comes from their phone number's country, else DEFAULT_LANGUAGE; a group's replies follow the person they
-- answer, and what the bot starts there is in DEFAULT_LANGUAGE).
ALTER TABLE user_preferences ADD COLUMN lang TEXT;
ALTER TABLE groups ADD COLUMN lang TEXT;
