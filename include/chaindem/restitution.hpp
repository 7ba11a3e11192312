#pragma once
// Restitution predictors (contact-laws.md group (g)) and the non-smooth reference laws (group (h)).
