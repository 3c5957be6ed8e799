/**
 * A small household concept thesaurus for the local embedder (SPEC §4).
 *
 * A lexical embedder only matches shared words, so "likes the bedroom cold at night" and "prefers a
 * chilly bedroom when sleeping" would look unrelated. Each group below lists near-synonyms and
 * closely related words of one everyday home topic; every word of a group also emits a shared
 * `concept:<name>` feature, giving paraphrases some overlap. The list is written from general
 * knowledge of household language, not fitted to any dataset — keep it that way when extending it.
 *
 * Format: concept name → comma-separated entries. An entry is a word or a two-word phrase
 * ("living room"); entries are analysed with the same tokenizer as the text (lower-case,
 * diacritics folded, stopwords removed, Porter-stemmed), so inflections match automatically and
 * irregular forms (slept, ate, drove) are listed explicitly. A word may sit in several groups.
 */
export const CONCEPTS: Readonly<Record<string, string>> = {
  // ── comfort and environment ──
  temperature:
    'temperature, temp, warm, warmer, warmth, hot, heat, heated, cold, colder, chilly, chill, cool, cooler, freezing, thermostat, degrees, fahrenheit, celsius, lukewarm, toasty, mild, stuffy',
  heating:
    'heating, heater, heat, furnace, boiler, radiator, heat pump, space heater, underfloor heating, thermostat, warm up',
  cooling: 'cooling, air conditioning, air conditioner, ac, aircon, fan, ceiling fan, cool down, cool, hvac, vent',
  humidity: 'humidity, humid, damp, dry, dryness, moisture, muggy, humidifier, dehumidifier, mold, mould, condensation',
  air_quality: 'air, air quality, ventilation, fresh air, stuffy, purifier, air purifier, co2, pollen, dust, filter',
  lighting:
    'light, lights, lamp, lamps, bulb, bulbs, lighting, dim, dimmer, dimmed, bright, brightness, lit, dark, darkness, nightlight, led, chandelier, sconce',
  light_color: 'color, colour, warm white, cool white, red, blue, green, yellow, purple, pink, hue, tint',
  daylight: 'daylight, sunlight, sunshine, sunrise, sunset, dusk, dawn, shade, glare',
  window_cover: 'window, windows, blinds, curtains, shades, shutters, drapes, blackout',
  noise: 'noise, noisy, loud, louder, quiet, quieter, silence, silent, volume, sound, earplugs, white noise',
  weather:
    'weather, rain, rainy, raining, snow, snowing, sunny, cloudy, storm, stormy, wind, windy, forecast, umbrella, thunder, fog, hail',
  seasons: 'season, seasons, seasonal, summer, winter, spring, autumn, fall',
  smell: 'smell, smells, odor, odour, stink, smelly, scent, fragrance, air freshener, candle, perfume',
  fireplace: 'fireplace, fire, firewood, logs, wood stove, chimney, candles',

  // ── sleep and the shape of the day ──
  sleep:
    'sleep, sleeping, slept, asleep, bed, bedtime, nap, naps, napping, doze, dozing, rest, tired, sleepy, wake, awake, woke, waking, insomnia, snore, snoring, dream, go to bed',
  bedding: 'bedding, sheets, blanket, blankets, duvet, comforter, quilt, pillow, pillows, mattress, pajamas, pyjamas',
  sleep_aids: 'white noise, earplugs, eye mask, melatonin, sleeping pill, sound machine',
  night: 'night, nights, nighttime, tonight, overnight, midnight, nightly, late',
  morning: 'morning, mornings, dawn, sunrise, early, wake up, breakfast time, am',
  afternoon: 'afternoon, afternoons, midday, noon, lunchtime',
  evening: 'evening, evenings, dusk, sunset, dinnertime, pm',
  weekend: 'weekend, weekends, saturday, sunday, saturdays, sundays',
  weekday: 'weekday, weekdays, monday, tuesday, wednesday, thursday, friday, workday, workdays',
  months: 'january, february, march, april, june, july, august, september, october, november, december, month, monthly',
  routine:
    'routine, routines, schedule, habit, habits, usually, always, every, daily, regularly, typically, normally, tends, often',
  frequency:
    'always, usually, often, sometimes, rarely, never, occasionally, every, daily, weekly, monthly, nightly, twice',
  alarm_clock: 'alarm, alarms, alarm clock, snooze, wake up, wakeup, timer, clock',
  reminder:
    'remind, reminder, reminders, remember, forget, forgot, forgotten, note, notes, appointment, calendar, deadline, due',
  appointment: 'appointment, appointments, booking, booked, reservation, scheduled, meeting, calendar, schedule',

  // ── food and drink ──
  food: 'food, eat, eats, eating, ate, eaten, meal, meals, dinner, breakfast, lunch, brunch, supper, snack, dish, cuisine, hungry, feed, diet',
  cooking:
    'cook, cooks, cooking, cooked, bake, baking, baked, grill, grilling, roast, fry, boil, recipe, recipes, chef, meal prep, kitchen',
  kitchen_appliance:
    'oven, stove, hob, microwave, fridge, refrigerator, freezer, dishwasher, toaster, kettle, blender, coffee maker, air fryer, slow cooker, instant pot',
  groceries:
    'grocery, groceries, shopping, supermarket, grocery store, buy, bought, purchase, shopping list, errands, market',
  pantry_stock: 'run out, ran out, running low, restock, refill, stock, supply, supplies, replenish, pantry',
  household_supplies:
    'toilet paper, paper towels, tissues, batteries, light bulbs, trash bags, detergent, dish soap, sponge',
  vegetables:
    'vegetable, vegetables, veggies, salad, broccoli, carrot, carrots, spinach, lettuce, tomato, tomatoes, potato, potatoes, onion, onions, garlic, mushroom, mushrooms, kale, beans, peas, cucumber, zucchini',
  fruit:
    'fruit, fruits, apple, apples, banana, bananas, orange, oranges, berries, strawberry, strawberries, grape, grapes, lemon, mango, peach, pear, melon, pineapple',
  meat: 'meat, beef, steak, chicken, pork, bacon, ham, turkey, lamb, sausage, burger, burgers, meatballs',
  seafood: 'fish, seafood, salmon, tuna, shrimp, prawns, shellfish, crab, lobster, sushi, cod',
  dairy: 'dairy, milk, cheese, yogurt, yoghurt, butter, cream, ice cream, lactose',
  grains: 'bread, toast, pasta, rice, cereal, oatmeal, oats, noodles, bagel, wheat, flour, gluten, sandwich',
  breakfast_food:
    'breakfast, eggs, egg, pancakes, waffles, cereal, toast, oatmeal, porridge, granola, bagel, croissant',
  sweets:
    'sweet, sweets, dessert, desserts, cake, cookie, cookies, chocolate, candy, sugar, pie, donut, biscuits, pastry',
  snacks: 'snack, snacks, snacking, chips, crisps, popcorn, crackers, pretzels, nuts',
  nuts: 'nut, nuts, peanut, peanuts, almond, almonds, walnut, cashew, hazelnut, tree nut, peanut butter',
  spicy: 'spicy, spice, spices, hot sauce, chili, chilli, jalapeno, curry, salsa, mild, bland, pepper',
  condiments: 'ketchup, mustard, mayo, mayonnaise, sauce, dressing, salt, vinegar, olive oil, seasoning',
  soup: 'soup, stew, broth, chowder, chili',
  vegetarian: 'vegetarian, vegan, plant based, meatless, tofu, pescatarian, meat free',
  diet: 'diet, dieting, calories, keto, low carb, nutrition, healthy eating, fasting, sugar free, gluten free, weight loss',
  cuisine: 'italian, pizza, mexican, tacos, chinese, thai, indian, japanese, sushi, french, greek, korean, burrito',
  takeout: 'takeout, takeaway, delivery, restaurant, restaurants, fast food, doordash, ubereats',
  drinks: 'drink, drinks, drinking, drank, beverage, thirsty, juice, soda, pop, water, smoothie, lemonade, sparkling',
  coffee: 'coffee, espresso, latte, cappuccino, americano, caffeine, decaf, brew, mocha, coffee maker, cafe',
  tea: 'tea, teas, herbal tea, green tea, black tea, chamomile, teapot, matcha, earl grey, kettle',
  alcohol:
    'alcohol, beer, wine, whiskey, whisky, cocktail, cocktails, vodka, gin, rum, drunk, sober, booze, liquor, prosecco',
  hydration: 'hydrate, hydration, water bottle, glass of water, dehydrated',
  dishes: 'dishes, dishwasher, washing up, plates, bowls, cups, mugs, cutlery, silverware, utensils, pots, pans, sink',

  // ── health ──
  allergy:
    'allergy, allergies, allergic, intolerance, intolerant, sensitivity, sensitive, reaction, anaphylaxis, epipen, hives, hay fever, antihistamine',
  medicine:
    'medicine, medicines, medication, medications, meds, pill, pills, tablet, tablets, dose, dosage, prescription, pharmacy, drug, drugs, vitamin, vitamins, supplement, antibiotic, insulin, inhaler',
  doctor:
    'doctor, doctors, physician, gp, clinic, hospital, nurse, checkup, specialist, pediatrician, surgery, medical',
  illness:
    'sick, ill, illness, flu, fever, cough, coughing, sneeze, headache, migraine, nausea, pain, sore, infection, covid, virus, unwell',
  chronic_condition:
    'diabetes, diabetic, asthma, blood pressure, heart condition, arthritis, condition, chronic, epilepsy, celiac',
  dental: 'dentist, dental, teeth, tooth, braces, floss, toothbrush, toothpaste, orthodontist',
  vision:
    'glasses, spectacles, contacts, contact lenses, reading glasses, sunglasses, eyesight, vision, optometrist, eye',
  hearing: 'hearing, hearing aid, hearing aids, deaf, ears, hard of hearing',
  mobility: 'wheelchair, walker, cane, mobility, crutches, knee, hip, back pain, stairlift',
  mental_health: 'therapist, therapy, counselor, counseling, psychologist, anxiety, depression, mental health',
  mood: 'mood, happy, sad, stressed, stress, anxious, upset, angry, calm, relaxed, grumpy, cheerful, lonely, worried, excited, bored',
  relax: 'relax, relaxing, relaxed, unwind, chill, calm, peaceful, cozy, cosy, lounge, downtime',
  comfort: 'comfortable, comfy, cozy, cosy, uncomfortable, comfort, snug',
  exercise:
    'exercise, exercising, workout, workouts, gym, fitness, run, running, ran, jog, jogging, yoga, stretch, stretching, training, treadmill, weights, cardio, pilates, steps',
  body_metrics: 'weight, weigh, scale, pounds, kilos, kg, lbs, blood pressure, heart rate, steps, bmi',
  wearable: 'smartwatch, fitbit, apple watch, garmin, wearable, tracker, watch',
  hygiene:
    'bath, bathe, bathing, shower, showers, showering, soap, shampoo, towel, towels, hygiene, wash, skincare, brush teeth',
  grooming: 'haircut, hair, barber, salon, hairdresser, shave, shaving, beard, makeup, nails, manicure',
  baby: 'baby, babies, infant, newborn, toddler, diaper, diapers, nappy, crib, cot, stroller, pram, formula, bottle, nursing, breastfeeding, pregnant, pregnancy',
  smoking: 'smoke, smoking, smoker, cigarette, cigarettes, vape, vaping, tobacco',
  emergency: 'emergency, 911, 999, ambulance, police, urgent, accident, fall, fell, injury, injured, hurt, first aid',

  // ── people ──
  family: 'family, relative, relatives, household, kin, folks',
  parents:
    'mom, mum, mother, mommy, mummy, dad, father, daddy, parent, parents, stepmom, stepdad, stepmother, stepfather',
  children: 'child, children, kid, kids, son, sons, daughter, daughters, boy, girl, toddler, teenager, teen, baby',
  siblings: 'brother, brothers, sister, sisters, sibling, siblings, twin, twins',
  partner: 'wife, husband, spouse, partner, boyfriend, girlfriend, fiance, fiancee, married, marriage, wedding',
  grandparents:
    'grandma, grandmother, grandpa, grandfather, granny, nana, grandparent, grandparents, grandchild, grandson, granddaughter, grandkids',
  extended_family: 'aunt, uncle, cousin, cousins, niece, nephew, mother in law, father in law',
  friends: 'friend, friends, buddy, pal, best friend, mate',
  neighbours: 'neighbor, neighbors, neighbour, neighbours, next door, neighborhood, neighbourhood',
  housemates: 'roommate, roommates, flatmate, housemate, tenant, landlord, lodger',
  guests: 'guest, guests, visitor, visitors, visit, visiting, host, hosting, houseguest, sleepover, company',
  helpers: 'babysitter, nanny, sitter, caregiver, carer, au pair, housekeeper, cleaner, maid, gardener, dog walker',
  name: 'name, names, nickname, called, goes by, surname, first name, last name',
  language: 'language, languages, english, spanish, french, german, speak, speaks, bilingual, accent, translate',
  communication:
    'call, calls, called, phone call, text, texts, message, messages, email, emails, voicemail, video call, facetime, whatsapp, chat',

  // ── occasions ──
  birthday: 'birthday, birthdays, bday, born, candles, birthday party, birthday cake, years old',
  anniversary: 'anniversary, anniversaries, wedding, married, engagement, engaged, date night',
  holidays:
    'holiday, holidays, christmas, xmas, thanksgiving, easter, halloween, hanukkah, diwali, eid, new year, passover, festive',
  gifts: 'gift, gifts, present, presents, wishlist, wish list, surprise, wrap',
  party:
    'party, parties, celebration, celebrate, celebrating, gathering, bbq, barbecue, get together, dinner party, cookout',
  faith: 'church, mass, temple, mosque, synagogue, prayer, pray, praying, worship, religious, faith',
  grief: 'passed away, died, death, funeral, memorial, grief, grieving, condolences',

  // ── pets ──
  pets: 'pet, pets, animal, animals',
  dog: 'dog, dogs, puppy, puppies, pup, doggy, leash, bark, barking, kennel, canine, fetch, walkies',
  cat: 'cat, cats, kitten, kittens, kitty, litter, litter box, litter tray, meow, feline, catnip, scratching post',
  small_pets:
    'fish tank, aquarium, hamster, rabbit, bunny, guinea pig, bird, parrot, budgie, turtle, tortoise, lizard, goldfish',
  pet_care:
    'vet, vets, veterinarian, groomer, grooming, flea, fleas, pet food, kibble, treats, feed, feeding, fed, neuter, spay',
  walk: 'walk, walks, walking, walked, stroll, leash, hike',

  // ── rooms and places in the home ──
  home: 'home, house, apartment, flat, condo, household, property',
  bedroom: 'bedroom, bedrooms, master bedroom, guest room, spare room, bed, nursery, bedside, nightstand',
  bathroom: 'bathroom, bathrooms, toilet, restroom, loo, washroom, shower, bath, bathtub, tub, ensuite, powder room',
  kitchen: 'kitchen, pantry, counter, countertop, kitchenette, breakfast bar',
  living_room: 'living room, lounge, family room, den, sitting room, front room, couch, sofa, tv room',
  dining_room: 'dining room, dining table, table',
  office_room: 'office, study, home office, desk, workspace',
  garage: 'garage, driveway, carport, workshop, shed',
  basement: 'basement, cellar, attic, loft, storage room, crawlspace',
  laundry:
    'laundry, washer, dryer, washing machine, tumble dryer, laundry room, detergent, ironing, iron, folding, clothes',
  outdoors_home: 'garden, yard, backyard, front yard, lawn, patio, porch, deck, balcony, terrace, veranda',
  entrance: 'entrance, front door, back door, hallway, hall, foyer, entryway, doorway, mudroom',
  floors: 'upstairs, downstairs, floor, ground floor, first floor, second floor, stairs, staircase, landing',
  kids_room: 'nursery, playroom, kids room',

  // ── the house itself ──
  door_lock: 'door, doors, lock, locks, locked, unlock, unlocked, deadbolt, key, keys, doorbell, gate, latch',
  security:
    'security, alarm system, camera, cameras, cctv, motion sensor, intruder, burglar, burglary, surveillance, armed, disarm, safe',
  sensors: 'sensor, sensors, motion, occupancy, presence, contact sensor, detector, reading, readings, measurement',
  presence:
    'home, away, arrive, arrives, arrived, arrival, leave, leaves, leaving, gone, return, returns, returned, absent',
  energy:
    'electricity, power, energy, watts, kwh, outlet, plug, socket, solar, solar panels, meter, power cut, outage, fuse',
  plumbing:
    'water, leak, leaking, leaks, plumbing, plumber, pipe, pipes, faucet, tap, drain, clog, clogged, toilet, water heater, hot water',
  fire_safety: 'smoke, smoke alarm, smoke detector, fire, carbon monoxide, co detector, extinguisher, fire alarm',
  cleaning:
    'clean, cleaning, cleaned, tidy, tidying, vacuum, vacuuming, hoover, mop, mopping, dust, dusting, sweep, scrub, wipe, mess, messy, dirty, chores',
  cleaning_products: 'detergent, bleach, soap, cleaner, spray, wipes, disinfectant, polish',
  trash:
    'trash, garbage, rubbish, bin, bins, recycling, recycle, compost, waste, dumpster, trash day, bin day, bin collection',
  repair:
    'repair, repairs, fix, fixed, broken, broke, maintenance, replace, handyman, contractor, renovation, tools, drill, paint, painting',
  furniture:
    'furniture, couch, sofa, chair, chairs, table, desk, shelf, shelves, cabinet, drawer, dresser, wardrobe, closet, bookcase, armchair, recliner',
  storage: 'drawer, drawers, cabinet, closet, cupboard, shelf, box, boxes, basket, container, wardrobe, storage, bin',
  decor: 'decor, decoration, decorations, picture, pictures, painting, frame, poster, rug, carpet, vase, mirror',
  flooring: 'floor, floors, carpet, rug, tiles, hardwood, laminate',
  roof: 'roof, gutter, gutters, chimney, shingles, attic',
  mail: 'mail, package, packages, parcel, parcels, delivery, deliveries, post, mailbox, letter, letters, courier, amazon',
  plants:
    'plant, plants, houseplant, houseplants, flowers, flower, garden, gardening, seeds, weeding, tree, trees, water the plants',
  yard_work:
    'lawn, mow, mowing, mower, lawnmower, rake, raking, leaves, hedge, shovel, snow blower, hose, sprinkler, weeds',
  snow_ice: 'snow, snowing, shovel, plow, plough, salt, ice, icy, frost, frosty, sleet',
  pool: 'pool, swimming pool, hot tub, jacuzzi, spa, sauna',
  pests:
    'bugs, bug, insects, mice, mouse, rats, ants, spider, spiders, pest, pests, exterminator, wasps, mosquito, mosquitoes',
  moving_house: 'move, moving, moved, relocate, relocating, movers, new house, new place',

  // ── devices ──
  tv: 'tv, television, telly, screen, remote, remote control, channel, netflix, streaming, shows, series, episode, movie, movies, film, films, watch, watching, youtube, hulu',
  speaker: 'speaker, speakers, sonos, soundbar, headphones, earbuds, airpods, audio, bluetooth, volume, stereo',
  voice_assistant: 'alexa, echo, google home, siri, assistant, voice assistant, homepod, smart speaker, nest hub',
  vacuum_robot: 'vacuum, robot vacuum, roomba, hoover, robovac, mop',
  network:
    'router, wifi, wi fi, internet, network, modem, broadband, connection, online, offline, signal, mesh, ethernet',
  passwords: 'password, passwords, passcode, pin, code, codes, wifi password, login, combination',
  phone: 'phone, phones, cellphone, cell phone, mobile, smartphone, iphone, android, cell',
  computer: 'computer, laptop, pc, mac, tablet, ipad, keyboard, monitor, printer, mouse',
  gaming: 'game, games, gaming, video game, video games, console, playstation, xbox, nintendo, controller',
  smart_home:
    'home assistant, automation, automations, smart home, hub, zigbee, zwave, z wave, mqtt, scene, scenes, device, devices, gadget',
  appliances: 'appliance, appliances, washer, dryer, dishwasher, fridge, oven, microwave, freezer, kettle',
  charging: 'battery, batteries, charger, charge, charging, charged, cable, power bank, low battery, plug in',
  notification: 'notification, notifications, alert, alerts, notify, announce, announcement, do not disturb, dnd, mute',

  // ── personal belongings ──
  keys: 'key, keys, keychain, keyring, house key, car key, fob, key fob, spare key',
  wallet: 'wallet, purse, money, cash, card, cards, credit card, debit card, license, licence',
  bag: 'bag, bags, backpack, handbag, purse, briefcase, suitcase, luggage, tote',
  clothes:
    'clothes, clothing, shirt, shirts, pants, trousers, jeans, dress, skirt, jacket, coat, sweater, jumper, hoodie, socks, shoes, boots, sneakers, trainers, hat, scarf, gloves, pajamas, outfit, wear, wearing, wore',
  jewelry: 'jewelry, jewellery, ring, rings, necklace, earrings, bracelet, watch',
  documents:
    'passport, documents, document, paperwork, papers, certificate, insurance, receipts, receipt, tax, taxes, forms, contract',
  lost_found: 'lost, lose, losing, missing, misplaced, misplace, find, found, finding, search, searching, looking',
  toys: 'toy, toys, lego, doll, dolls, stuffed animal, teddy, teddy bear, blocks',

  // ── getting around ──
  car: 'car, cars, vehicle, vehicles, drive, drives, driving, drove, driven, driver, truck, suv, van, minivan, sedan, parking, parked, garage, tesla',
  car_care: 'mechanic, oil change, tire, tires, tyre, tyres, car service, inspection, registration, car wash, mot',
  fuel: 'gas, petrol, fuel, diesel, fill up, gas station, petrol station, ev, electric car, charging station',
  commute: 'commute, commuting, traffic, rush hour, train, bus, subway, metro, tram, transit, carpool, ride',
  bike: 'bike, bikes, bicycle, cycling, cycle, scooter, helmet, ebike',
  travel:
    'travel, traveling, travelling, trip, trips, vacation, holiday, flight, flights, fly, flying, flew, airport, plane, hotel, passport, luggage, suitcase, abroad, journey',
  school_run: 'pick up, pickup, drop off, dropoff, school run, carpool, ride',

  // ── work, school, money ──
  work: 'work, works, working, worked, job, jobs, office, career, employer, boss, colleague, colleagues, coworker, coworkers, meeting, meetings, shift, shifts, workplace, business, client, project',
  remote_work: 'work from home, wfh, remote, home office, zoom, video call, teams',
  school:
    'school, class, classes, teacher, teachers, homework, student, students, college, university, lesson, lessons, grade, exam, exams, study, studying, kindergarten, preschool, daycare',
  activities: 'practice, lessons, club, scouts, rehearsal, recital, tutoring',
  money:
    'money, budget, bills, bill, pay, paid, payment, rent, mortgage, bank, savings, expense, expenses, cost, price, spend, spending, afford, salary, finances',
  subscriptions: 'subscription, subscriptions, membership, renew, renewal, cancel',

  // ── leisure ──
  music:
    'music, song, songs, playlist, playlists, listen, listening, album, albums, artist, band, radio, spotify, jazz, rock, pop, classical, hip hop, concert, sing, singing, tune, tunes',
  instruments: 'piano, guitar, violin, drums, instrument, cello, flute, keyboard, ukulele',
  reading: 'read, reads, reading, book, books, novel, novels, kindle, ebook, library, author, magazine, newspaper',
  podcasts_news: 'podcast, podcasts, news, radio, audiobook, audiobooks',
  games_puzzles: 'board game, board games, puzzle, puzzles, chess, cards, crossword, sudoku, lego',
  hobbies:
    'hobby, hobbies, craft, crafts, knitting, sewing, painting, drawing, photography, woodworking, baking, fishing, pottery',
  outdoors: 'hike, hiking, camping, beach, park, parks, outdoors, nature, trail, picnic',
  sports:
    'sport, sports, football, soccer, basketball, baseball, tennis, golf, hockey, swim, swimming, cycling, rugby, cricket, volleyball, match, team, league, score',
  dance: 'dance, dancing, ballet, tap, salsa, zumba',

  // ── likes, dislikes, wants ──
  like: 'like, likes, liked, love, loves, loved, enjoy, enjoys, enjoyed, prefer, prefers, preferred, preference, favorite, favourite, fond, fan, adore, adores',
  dislike:
    'dislike, dislikes, hate, hates, hated, detest, avoid, avoids, cannot stand, cant stand, not a fan, annoys, bothers, irritates',
  want: 'want, wants, wanted, need, needs, needed, wish, request, requested, asked, would like',
};
